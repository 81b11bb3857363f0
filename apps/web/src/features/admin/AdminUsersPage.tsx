import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import PasswordOutlinedIcon from '@mui/icons-material/PasswordOutlined';
import PersonAddAlt1Icon from '@mui/icons-material/PersonAddAlt1';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { AdminUser } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { RowActions } from '../../components/RowActions';
import { formatDate } from '../../lib/dates';
import { useSession } from '../../lib/session';
import { AddAdminDialog } from './AddAdminDialog';
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

const columns = ['Admin ID', 'Username', 'First Name', 'Last Name', 'Access level', 'Added', 'Actions'];

export function AdminUsersPage() {
  const admins = useQuery(adminUsersQuery);
  const session = useSession();
  const [dialog, setDialog] = useState<OpenDialog>(null);
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

      <QueryState query={admins} loadingLabel="Loading admin users">
        {(data) => (
          <TableContainer component={Paper} variant="outlined">
            <Table aria-label="Admin users" sx={{ minWidth: 760 }}>
              <TableHead>
                <TableRow>
                  {columns.map((column) => (
                    <TableCell
                      key={column}
                      align={column === 'Actions' ? 'right' : 'left'}
                      sx={{ whiteSpace: 'nowrap' }}
                    >
                      {column}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {data.map((admin) => (
                  <TableRow key={admin.admin_user_id} hover>
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
                    </TableCell>
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
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            {data.length === 0 && (
              <Box sx={{ p: 3 }}>
                <Typography>No admin users yet.</Typography>
              </Box>
            )}
          </TableContainer>
        )}
      </QueryState>

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
