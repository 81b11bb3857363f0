import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  PARTICIPANT_FORM_SECTIONS,
  createParticipantBody,
  messages,
  participantField,
  participantFieldsWhere,
  siteId,
  type ParticipantFormSection,
  type ReferralField,
} from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { WarningAlert } from '../../components/WarningAlert';
import { useSessionSites } from '../../lib/organisations';
import { availableDevicesQuery, useCreateParticipant } from './api';
import { deviceLabel } from './deviceLabel';
import { ParticipantFormField } from './ParticipantFormField';
import { PossibleDuplicates } from './PossibleDuplicates';
import { formFieldsOf, type FormField } from './participantFields';
import { ReferralFields, emptyReferral } from './ReferralFields';

type OwnFormField = Exclude<FormField, ReferralField>;

/** Every field of the page blank (the referral's questions unanswered), in the field table's order. */
const emptyForm = {
  ...(Object.fromEntries(
    participantFieldsWhere<OwnFormField>(
      (field) => field.form !== undefined && field.form.section !== 'referral',
    ).map((name) => [name, '']),
  ) as Record<OwnFormField, string>),
  ...emptyReferral,
  /** Asked only where there is a choice of site; otherwise the server takes the admin's only site. */
  site_id: undefined as number | undefined,
};

/** The page's sections of the participant's own fields, in page order (the referral follows). */
const OWN_SECTIONS = (Object.keys(PARTICIPANT_FORM_SECTIONS) as ParticipantFormSection[]).filter(
  (section) => section !== 'referral',
);

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
      <Typography id={id} variant="h2" sx={{ mb: 2.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Where the admin sees more than one site, the participant's site is required (the server's rule too). */
const withSite = createParticipantBody.extend({ site_id: siteId }) as unknown as typeof createParticipantBody;

const twoColumns = { display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } } as const;

/** Add participant (spec §2, §5): every field, validated with the server's own rules. */
export function AddParticipantPage() {
  const navigate = useNavigate();
  const create = useCreateParticipant();
  const devices = useQuery(availableDevicesQuery);
  const sites = useSessionSites();
  const manySites = sites.length > 1;
  const {
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(manySites ? withSite : createParticipantBody),
    defaultValues: emptyForm,
  });

  // A participant saved with possible duplicates: the page says so, with links, before moving on.
  const [saved, setSaved] = useState<{ id: number; duplicates: number[] } | null>(null);

  const save = handleSubmit((body) =>
    create.mutate(body, {
      onSuccess: (created) => {
        if (created.possible_duplicates.length === 0) return void navigate('/participants');
        setSaved({ id: created.participant_id, duplicates: created.possible_duplicates });
        reset(emptyForm);
        window.scrollTo({ top: 0 });
      },
    }),
  );

  function close() {
    reset(emptyForm);
    create.reset();
    void navigate('/participants');
  }

  if (saved) {
    return (
      <>
        <PageHeader title="Add participant">Participant {saved.id} saved.</PageHeader>
        <PossibleDuplicates ids={saved.duplicates} />
        <Box sx={{ display: 'flex', gap: 1.5, justifyContent: 'flex-end', mb: 2 }}>
          <Button onClick={() => setSaved(null)}>Add another</Button>
          <Button variant="contained" onClick={close}>
            Back to participants
          </Button>
        </Box>
      </>
    );
  }

  const deviceChoice = (
    <Box>
      <Controller
        name="unique_device_id"
        control={control}
        render={({ field }) => (
          <Autocomplete
            id="add-participant-device"
            options={devices.data ?? []}
            loading={devices.isPending}
            value={devices.data?.find((d) => d.uuid === field.value) ?? null}
            onChange={(_event, device) => field.onChange(device?.uuid ?? '')}
            onBlur={field.onBlur}
            getOptionLabel={deviceLabel}
            isOptionEqualToValue={(option, value) => option.uuid === value.uuid}
            noOptionsText={devices.data?.length === 0 ? messages.device.noneAvailable : 'No device matches'}
            renderInput={(params) => (
              <TextField
                {...params}
                inputRef={field.ref}
                label={participantField('unique_device_id').label}
                required
                error={Boolean(errors.unique_device_id)}
                helperText={errors.unique_device_id?.message ?? 'Type to search by name or UUID'}
              />
            )}
          />
        )}
      />
      {devices.data?.length === 0 && (
        <Alert severity="warning" sx={{ mt: 1.5 }}>
          {messages.device.noneAvailable}
        </Alert>
      )}
      {devices.isError && (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {devices.error.message}
        </Alert>
      )}
    </Box>
  );

  /** A field of the table in its place: the device has its own picker, a wide one spans both columns. */
  const fieldOf = (name: OwnFormField) => {
    const form = participantField(name).form!;
    if (form.input === 'device') return <Fragment key={name}>{deviceChoice}</Fragment>;
    const input = (
      <ParticipantFormField key={name} control={control} name={name} form="add" idPrefix="add-participant" />
    );
    return form.wide === 'both' ? (
      <Box key={name} sx={{ gridColumn: { md: '1 / -1' } }}>
        {input}
      </Box>
    ) : (
      input
    );
  };

  return (
    <>
      <PageHeader title="Add participant">
        Fields marked * are required. The participant is saved with their referral and device.
      </PageHeader>
      <Box component="form" noValidate onSubmit={save} aria-label="Add participant">
        {create.error && <WarningAlert message={create.error.message} />}

        {manySites && (
          <Section title="Site">
            <Controller
              name="site_id"
              control={control}
              render={({ field, fieldState: { error } }) => (
                <TextField
                  id="add-participant-site"
                  select
                  required
                  label="Site"
                  value={field.value ?? ''}
                  onChange={(event) => field.onChange(Number(event.target.value))}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  error={Boolean(error)}
                  helperText={error?.message ?? 'The site whose staff look after this participant'}
                  sx={{ maxWidth: { md: '50%' } }}
                >
                  {sites.map((site) => (
                    <MenuItem key={site.site_id} value={site.site_id}>
                      {site.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Section>
        )}

        {OWN_SECTIONS.map((section) => (
          <Section key={section} title={PARTICIPANT_FORM_SECTIONS[section]}>
            <Box sx={twoColumns}>{(formFieldsOf(section) as OwnFormField[]).map(fieldOf)}</Box>
          </Section>
        ))}

        <Section title={PARTICIPANT_FORM_SECTIONS.referral}>
          <ReferralFields control={control} errors={errors} idPrefix="add-participant" />
        </Section>

        <Box sx={{ display: 'flex', gap: 1.5, justifyContent: 'flex-end', mb: 2 }}>
          <Button onClick={close}>Close</Button>
          <Button type="submit" variant="contained" loading={create.isPending}>
            Save
          </Button>
        </Box>
      </Box>
    </>
  );
}
