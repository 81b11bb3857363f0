import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import PasswordOutlinedIcon from '@mui/icons-material/PasswordOutlined';
import PersonAddAlt1Icon from '@mui/icons-material/PersonAddAlt1';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { AdminUser } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { ACTIONS_COLUMN, PagedTable } from '../../components/PagedTable';
import { RowActions } from '../../components/RowActions';
import { formatDate } from '../../lib/dates';
import { useSession } from '../../lib/session';
import { AddAdminDialog } from './AddAdminDialog';
import { SystemAdministratorChip, useAdminScopeColumns } from './AdminScopeColumns';
import { adminUsersQuery } from './api';
import { DeleteAdminDialog } from './DeleteAdminDialog';
import { EditAdminDialog } from './EditAdminDialog';
import { LockoutsSection } from './LockoutsSection';
import { ResetAuthenticatorDialog } from './ResetAuthenticatorDialog';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { RoleChip } from './RoleChip';

type OpenDialog =
  | { kind: 'add' }
  | { kind: 'edit'; admin: AdminUser }
  | { kind: 'delete'; admin: AdminUser }
  | { kind: 'reset-authenticator'; admin: AdminUser }
  | { kind: 'reset-password'; admin: AdminUser }
  | null;

export function AdminUsersPage() {
  const admins = useQuery(adminUsersQuery);
  const session = useSession();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const scope = useAdminScopeColumns(admins.data);
  const columns = [
    'Admin ID',
    'Username',
    'First Name',
    'Last Name',
    'Access level',
    ...scope.headings,
    'Added',
    ACTIONS_COLUMN,
  ];
  const close = () => setDialog(null);

  return (
    <>
      <PageHeader
        title="Admin Users"
        actions={
          <Button
            variant="contained"
            startIcon={<PersonAddAlt1Icon />}
            onClick={() => setDialog({ kind: 'add' })}
          >
            Add admin user
          </Button>
        }
      >
        Staff who can sign in to this console, and what they may see.
      </PageHeader>

      <PagedTable
        query={admins}
        loadingLabel="Loading admin users"
        label="Admin users"
        minWidth={760 + 160 * scope.headings.length}
        columns={columns}
        rowKey={(admin) => admin.admin_user_id}
        empty="No admin users yet."
        renderRow={(admin) => (
          <>
            <TableCell>{admin.admin_user_id}</TableCell>
            <TableCell sx={{ overflowWrap: 'anywhere', minWidth: 180 }}>
              {admin.user_name}
              {admin.admin_user_id === session?.admin_user_id && (
                <Typography component="span" variant="body2" color="text.secondary">
                  {' '}
                  (you)
                </Typography>
              )}
            </TableCell>
            <TableCell>{admin.first_name}</TableCell>
            <TableCell>{admin.last_name}</TableCell>
            <TableCell>
              <RoleChip role={admin.role} />
              {scope.markSystemAdministrators && admin.system_administrator && <SystemAdministratorChip />}
            </TableCell>
            {scope.cells(admin)}
            <TableCell>{formatDate(admin.created_at)}</TableCell>
            <RowActions
              name={admin.user_name}
              onEdit={() => setDialog({ kind: 'edit', admin })}
              onDelete={() => setDialog({ kind: 'delete', admin })}
            >
              {/* One's own account is recovered with Change password (Exit menu), never reset. */}
              {admin.admin_user_id !== session?.admin_user_id && (
                <>
                  <Tooltip title="Reset authenticator" describeChild>
                    <IconButton
                      aria-label={`Reset authenticator of ${admin.user_name}`}
                      onClick={() => setDialog({ kind: 'reset-authenticator', admin })}
                    >
                      <KeyOutlinedIcon />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title="Reset password" describeChild>
                    <IconButton
                      aria-label={`Reset password of ${admin.user_name}`}
                      onClick={() => setDialog({ kind: 'reset-password', admin })}
                    >
                      <PasswordOutlinedIcon />
                    </IconButton>
                  </Tooltip>
                </>
              )}
            </RowActions>
          </>
        )}
      />

      {dialog?.kind === 'add' && <AddAdminDialog onClose={close} />}
      {dialog?.kind === 'edit' && <EditAdminDialog admin={dialog.admin} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteAdminDialog admin={dialog.admin} onClose={close} />}
      {dialog?.kind === 'reset-authenticator' && (
        <ResetAuthenticatorDialog admin={dialog.admin} onClose={close} />
      )}
      {dialog?.kind === 'reset-password' && <ResetPasswordDialog admin={dialog.admin} onClose={close} />}

      <LockoutsSection />
    </>
  );
}
