import LockOpenOutlinedIcon from '@mui/icons-material/LockOpenOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import { messages, type Lockout } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { NoticeSnackbar } from '../../components/NoticeSnackbar';
import { ACTIONS_COLUMN, PagedTable } from '../../components/PagedTable';
import { PageSection } from '../../components/PageSection';
import { contactExact } from '../../lib/contactTime';
import { lockoutsQuery, useLiftLockout } from './api';

const columns = ['Username', 'Address', 'Failures in a row', 'Last failure', 'State', ACTIONS_COLUMN];

function LiftLockoutDialog({ lockout, onClose }: { lockout: Lockout; onClose: (lifted?: string) => void }) {
  const lift = useLiftLockout();
  return (
    <ConfirmDeleteDialog
      id="lift-lockout"
      title="Lift sign-in lock"
      text={
        <>
          <strong>{lockout.user_name}</strong>: {messages.admin.unlockConfirm}
        </>
      }
      confirmLabel="Lift lock"
      error={lift.error}
      pending={lift.isPending}
      onConfirm={() => lift.mutate(lockout.user_name, { onSuccess: (answer) => onClose(answer.message) })}
      onClose={() => onClose()}
    />
  );
}

/**
 * Sign-in lock-outs (full access): user names whose sign-ins from an address are slowed down after
 * repeated failures, or locked for 15 minutes after ten. Failures are counted per address, so an
 * outsider's guesses lock only the outsider; staff lift a lock once they know who failed.
 */
export function LockoutsSection() {
  const lockouts = useQuery(lockoutsQuery);
  const [lifting, setLifting] = useState<Lockout | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <PageSection
      headingId="lockouts-heading"
      title="Sign-in lock-outs"
      actions={
        <Button color="inherit" onClick={() => void lockouts.refetch()} loading={lockouts.isFetching}>
          Refresh
        </Button>
      }
      description={
        <>
          Usernames with repeated failed sign-ins from one address: after 3 in a row each further attempt from
          that address waits longer, and after 10 it is locked for 15 minutes. Sign-ins from other addresses
          are not affected.
        </>
      }
    >
      <PagedTable
        query={lockouts}
        loadingLabel="Loading sign-in lock-outs"
        label="Sign-in lock-outs"
        size="small"
        minWidth={640}
        columns={columns}
        rowKey={(lockout) => `${lockout.user_name} ${lockout.source ?? ''}`}
        empty="No sign-ins are locked or slowed down."
        renderRow={(lockout) => (
          <>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{lockout.user_name}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace' }}>{lockout.source ?? 'Unknown'}</TableCell>
            <TableCell>{lockout.failures}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{contactExact(lockout.last_failure_at)}</TableCell>
            <TableCell>
              {lockout.locked_until ? (
                <Chip
                  size="small"
                  color="error"
                  label={`Locked until ${contactExact(lockout.locked_until).slice(11)}`}
                />
              ) : (
                // MUI's warning orange under white text fails WCAG contrast: an outlined chip instead.
                <Chip size="small" variant="outlined" label="Slowed down" />
              )}
            </TableCell>
            <TableCell align="right">
              <Button
                size="small"
                startIcon={<LockOpenOutlinedIcon />}
                aria-label={`Lift lock for ${lockout.user_name}`}
                onClick={() => setLifting(lockout)}
              >
                Lift lock
              </Button>
            </TableCell>
          </>
        )}
      />

      {lifting && (
        <LiftLockoutDialog
          lockout={lifting}
          onClose={(lifted) => {
            setLifting(null);
            if (lifted) setNotice(`${lifted}: ${lifting.user_name}`);
          }}
        />
      )}
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </PageSection>
  );
}
