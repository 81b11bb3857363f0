import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { organisationsQuery, sitesQuery } from '../../lib/organisations';
import { useSession } from '../../lib/session';

/**
 * What of organisations and sites an admin's form offers. One organisation with one site stays
 * simple: no organisation, site or system-administrator field until there is a second of either.
 * The organisation is chosen by system administrators only (the server refuses anyone else).
 */
export function useOrganisationChoices(organisationId: number | undefined) {
  const session = useSession();
  const systemAdministrator = session?.system_administrator ?? false;
  const organisations = useQuery({ ...organisationsQuery, enabled: systemAdministrator });
  const ownId = session?.organisation.organisation_id;
  const chosen = organisationId ?? ownId;
  const sites = useQuery({ ...sitesQuery(chosen ?? 0), enabled: chosen !== undefined });
  const manyOrganisations = (organisations.data?.length ?? 1) > 1;
  const manySites = (sites.data?.length ?? 1) > 1;
  return {
    organisations: systemAdministrator && manyOrganisations ? (organisations.data ?? []) : [],
    sites: manySites ? (sites.data ?? []) : [],
    showSystemAdministrator: systemAdministrator && (manyOrganisations || manySites),
    ownOrganisationId: ownId,
  };
}

type FieldProps<T extends FieldValues> = { control: Control<T>; name: FieldPath<T>; id: string };

/** The admin's sites: none chosen means every site of the organisation. */
export function SitesSelect<T extends FieldValues>({
  control,
  name,
  id,
  sites,
}: FieldProps<T> & { sites: { site_id: number; name: string }[] }) {
  const nameOf = (siteId: number) => sites.find((s) => s.site_id === siteId)?.name ?? String(siteId);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState: { error } }) => (
        <TextField
          id={id}
          select
          label="Sites"
          value={field.value ?? []}
          onChange={(event) => field.onChange(event.target.value)}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={Boolean(error)}
          helperText={error?.message ?? 'The sites whose participants they see; none chosen: every site'}
          slotProps={{
            select: {
              multiple: true,
              displayEmpty: true,
              renderValue: (value) => {
                const ids = value as number[];
                return ids.length === 0 ? 'Every site' : ids.map(nameOf).join(', ');
              },
            },
          }}
        >
          {sites.map((site) => (
            <MenuItem key={site.site_id} value={site.site_id}>
              {site.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

/** Whether the admin runs the instance: organisations, sites, their admins, shared video sets, logs. */
export function SystemAdministratorCheckbox<T extends FieldValues>({ control, name, id }: FieldProps<T>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <div>
          <FormControlLabel
            control={
              <Checkbox
                id={id}
                checked={Boolean(field.value)}
                onChange={(event) => field.onChange(event.target.checked)}
                inputRef={field.ref}
                slotProps={{ input: { 'aria-describedby': `${id}-hint` } }}
              />
            }
            label="System administrator"
          />
          <FormHelperText id={`${id}-hint`} sx={{ mt: 0 }}>
            Manages organisations, sites, their admin users and shared video sets; reads no participant record
          </FormHelperText>
        </div>
      )}
    />
  );
}

/** The organisation a new admin belongs to (system administrators, when there is more than one). */
export function OrganisationSelect<T extends FieldValues>({
  control,
  name,
  id,
  organisations,
  onChosen,
  fallback,
}: FieldProps<T> & {
  organisations: { organisation_id: number; name: string }[];
  onChosen: () => void;
  /** Shown while none is chosen: the signed-in admin's own, which the server takes for none. */
  fallback: number | undefined;
}) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState: { error } }) => (
        <TextField
          id={id}
          select
          label="Organisation"
          value={field.value ?? fallback ?? ''}
          onChange={(event) => {
            field.onChange(Number(event.target.value));
            onChosen();
          }}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={Boolean(error)}
          helperText={error?.message}
        >
          {organisations.map((organisation) => (
            <MenuItem key={organisation.organisation_id} value={organisation.organisation_id}>
              {organisation.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
