import { zodResolver } from '@hookform/resolvers/zod';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { updateAdminBody, type AdminUser } from '@pathway/contract';
import { useForm } from 'react-hook-form';
import { FormDialog } from '../../components/form/FormDialog';
import { FormTextField } from '../../components/form/FormTextField';
import { useUpdateAdmin } from './api';
import { SitesSelect, SystemAdministratorCheckbox, useOrganisationChoices } from './OrganisationFields';
import { RoleSelect } from './RoleChip';

/** Role and names of an admin user; the user name cannot change (spec §2). */
export function EditAdminDialog({ admin, onClose }: { admin: AdminUser; onClose: () => void }) {
  const update = useUpdateAdmin();
  const { control, handleSubmit } = useForm({
    resolver: zodResolver(updateAdminBody),
    defaultValues: {
      first_name: admin.first_name,
      last_name: admin.last_name,
      role: admin.role,
      site_ids: admin.site_ids,
      system_administrator: admin.system_administrator,
    },
  });
  const choices = useOrganisationChoices(admin.organisation_id);

  // Only what the form shows is sent: a field it hides (one site, not a system administrator) stays as it is.
  const save = handleSubmit(({ site_ids, system_administrator, ...body }) =>
    update.mutate(
      {
        ...body,
        ...(choices.sites.length > 0 ? { site_ids } : {}),
        ...(choices.showSystemAdministrator ? { system_administrator } : {}),
        user_name: admin.user_name,
      },
      { onSuccess: onClose },
    ),
  );

  return (
    <FormDialog
      id="edit-admin"
      title="Edit admin user"
      onClose={onClose}
      onSubmit={save}
      pending={update.isPending}
      error={update.error}
    >
      <Stack spacing={2.5}>
        <FormTextField control={control} name="role" as={RoleSelect} id="edit-admin-role" />
        <TextField id="edit-admin-user-name" label="Username" value={admin.user_name} disabled />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField control={control} name="first_name" id="edit-admin-first-name" label="First name" />
          <FormTextField control={control} name="last_name" id="edit-admin-last-name" label="Last name" />
        </Stack>
        {choices.sites.length > 0 && (
          <SitesSelect control={control} name="site_ids" id="edit-admin-sites" sites={choices.sites} />
        )}
        {choices.showSystemAdministrator && (
          <SystemAdministratorCheckbox
            control={control}
            name="system_administrator"
            id="edit-admin-system-administrator"
          />
        )}
      </Stack>
    </FormDialog>
  );
}
