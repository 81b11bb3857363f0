import { zodResolver } from '@hookform/resolvers/zod';
import Stack from '@mui/material/Stack';
import {
  createOrganisationBody,
  createSiteBody,
  odsCode,
  type Organisation,
  type Site,
} from '@pathway/contract';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormDialog } from '../../components/form/FormDialog';
import { FormTextField } from '../../components/form/FormTextField';
import { useCreateOrganisation, useCreateSite, useUpdateOrganisation, useUpdateSite } from './api';

const ODS_HINT = '3 to 5 letters and digits, as the NHS Organisation Data Service publishes it';

/** A code the form may leave blank (the request then sends none). */
const blankOrOdsCode = z.union([z.literal(''), odsCode]);
/** An organisation from before organisations existed has no ODS code: blank keeps it so. */
const editOrganisationForm = createOrganisationBody.extend({ ods_code: blankOrOdsCode });
/** A site's code is optional. */
const siteForm = createSiteBody.extend({ ods_code: blankOrOdsCode });

interface NameAndCode {
  name: string;
  ods_code: string;
}

function NameAndCodeFields({
  control,
  id,
  nameLabel,
  codeRequired,
}: {
  control: ReturnType<typeof useForm<NameAndCode>>['control'];
  id: string;
  nameLabel: string;
  codeRequired: boolean;
}) {
  return (
    <Stack spacing={2.5}>
      <FormTextField control={control} name="name" id={`${id}-name`} label={nameLabel} required autoFocus />
      <FormTextField
        control={control}
        name="ods_code"
        id={`${id}-ods-code`}
        label="ODS code"
        required={codeRequired}
        hint={codeRequired ? ODS_HINT : `${ODS_HINT} (optional)`}
        slotProps={{ htmlInput: { autoCapitalize: 'characters', spellCheck: false } }}
      />
    </Stack>
  );
}

/** A new organisation (it starts with one site of the same name and code), or an organisation renamed. */
export function OrganisationDialog({
  organisation,
  onClose,
}: {
  /** Absent: a new one. */
  organisation?: Organisation;
  onClose: () => void;
}) {
  const create = useCreateOrganisation();
  const update = useUpdateOrganisation(organisation?.organisation_id ?? 0);
  const mutation = organisation ? update : create;
  const { control, handleSubmit } = useForm<NameAndCode, unknown, NameAndCode>({
    resolver: zodResolver(organisation ? editOrganisationForm : createOrganisationBody),
    defaultValues: { name: organisation?.name ?? '', ods_code: organisation?.ods_code ?? '' },
  });
  const save = handleSubmit(({ name, ods_code }) => {
    if (organisation) {
      update.mutate({ name, ods_code: ods_code === '' ? undefined : ods_code }, { onSuccess: onClose });
    } else {
      create.mutate({ name, ods_code }, { onSuccess: onClose });
    }
  });
  const id = organisation ? 'edit-organisation' : 'add-organisation';
  return (
    <FormDialog
      id={id}
      title={organisation ? 'Edit organisation' : 'Add organisation'}
      onClose={onClose}
      onSubmit={save}
      pending={mutation.isPending}
      error={mutation.error}
    >
      <NameAndCodeFields
        control={control}
        id={id}
        nameLabel="Organisation name"
        codeRequired={!organisation || organisation.ods_code !== null}
      />
    </FormDialog>
  );
}

/** A new site of an organisation, or a site renamed. */
export function SiteDialog({
  organisationId,
  site,
  onClose,
}: {
  organisationId: number;
  /** Absent: a new one. */
  site?: Site;
  onClose: () => void;
}) {
  const create = useCreateSite(organisationId);
  const update = useUpdateSite(site?.site_id ?? 0);
  const mutation = site ? update : create;
  const { control, handleSubmit } = useForm<NameAndCode, unknown, NameAndCode>({
    resolver: zodResolver(siteForm),
    defaultValues: { name: site?.name ?? '', ods_code: site?.ods_code ?? '' },
  });
  const save = handleSubmit(({ name, ods_code }) => {
    // Blank: the site has no ODS code of its own.
    const body = { name, ods_code: ods_code === '' ? null : ods_code };
    if (site) update.mutate(body, { onSuccess: onClose });
    else create.mutate(body, { onSuccess: onClose });
  });
  const id = site ? 'edit-site' : 'add-site';
  return (
    <FormDialog
      id={id}
      title={site ? 'Edit site' : 'Add site'}
      onClose={onClose}
      onSubmit={save}
      pending={mutation.isPending}
      error={mutation.error}
    >
      <NameAndCodeFields control={control} id={id} nameLabel="Site name" codeRequired={false} />
    </FormDialog>
  );
}
