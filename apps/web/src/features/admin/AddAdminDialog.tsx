import { zodResolver } from '@hookform/resolvers/zod';
import Stack from '@mui/material/Stack';
import { BASIC_ACCESS, createAdminBody, limits, type CreatedAdminUser } from '@pathway/contract';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { FormDialog } from '../../components/form/FormDialog';
import { FormTextField } from '../../components/form/FormTextField';
import { useCreateAdmin } from './api';
import { AuthenticatorSetup } from './AuthenticatorSetup';
import {
  OrganisationSelect,
  SitesSelect,
  SystemAdministratorCheckbox,
  useOrganisationChoices,
} from './OrganisationFields';
import { RoleSelect } from './RoleChip';

/**
 * Adds an admin user (spec §2, §5). On success the QR code for their authenticator app is shown
 * in place of the form, and only Close remains: the code is never shown again.
 */
export function AddAdminDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateAdmin();
  const [created, setCreated] = useState<CreatedAdminUser | null>(null);
  const { control, handleSubmit, setValue } = useForm({
    resolver: zodResolver(createAdminBody),
    defaultValues: {
      user_name: '',
      password: '',
      first_name: '',
      last_name: '',
      role: BASIC_ACCESS,
      site_ids: [],
      system_administrator: false,
    },
  });
  const organisationId = useWatch({ control, name: 'organisation_id' });
  const choices = useOrganisationChoices(organisationId);

  const save = handleSubmit((body) => create.mutate(body, { onSuccess: setCreated }));

  return (
    <FormDialog
      id="add-admin"
      title="Add admin user"
      onClose={onClose}
      onSubmit={save}
      pending={create.isPending}
      error={create.error}
      done={created !== null}
    >
      {created ? (
        <AuthenticatorSetup admin={created} />
      ) : (
        <Stack spacing={2.5}>
          <FormTextField
            control={control}
            name="user_name"
            id="add-admin-user-name"
            label="Username"
            required
            autoFocus
            hint="An email address, or a name of at least 6 characters"
            slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
          />
          <FormTextField
            control={control}
            name="password"
            id="add-admin-password"
            label="Password"
            type="password"
            required
            autoComplete="new-password"
            hint={`At least ${limits.passwordMin} characters; not a common password or one with the username in it`}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField control={control} name="first_name" id="add-admin-first-name" label="First name" />
            <FormTextField control={control} name="last_name" id="add-admin-last-name" label="Last name" />
          </Stack>
          <FormTextField
            control={control}
            name="role"
            as={RoleSelect}
            id="add-admin-role"
            hint="Full access can see identifiable data and manage admin users"
          />
          {choices.organisations.length > 0 && (
            <OrganisationSelect
              control={control}
              name="organisation_id"
              id="add-admin-organisation"
              organisations={choices.organisations}
              // Another organisation's sites are others: its limits start again.
              onChosen={() => setValue('site_ids', [])}
              fallback={choices.ownOrganisationId}
            />
          )}
          {choices.sites.length > 0 && (
            <SitesSelect control={control} name="site_ids" id="add-admin-sites" sites={choices.sites} />
          )}
          {choices.showSystemAdministrator && (
            <SystemAdministratorCheckbox
              control={control}
              name="system_administrator"
              id="add-admin-system-administrator"
            />
          )}
        </Stack>
      )}
    </FormDialog>
  );
}
