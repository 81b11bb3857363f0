import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Link from '@mui/material/Link';
import { messages } from '@pathway/contract';
import { Link as RouterLink } from 'react-router';

/**
 * Possible duplicates: participants already registered with the same names and date of
 * birth, each a link to the list searched for them. A warning: the participant is saved.
 */
export function PossibleDuplicates({
  ids,
  onFollow,
}: {
  ids: readonly number[];
  /** Told when a link is followed (a dialog closes itself). */
  onFollow?: () => void;
}) {
  if (ids.length === 0) return null;
  return (
    <Alert severity="warning" role="status" sx={{ mb: 2 }}>
      <AlertTitle>Possible duplicate</AlertTitle>
      {messages.possibleDuplicate.warning(ids.length)}{' '}
      {ids.map((id, i) => (
        <span key={id}>
          {i > 0 && ', '}
          <Link component={RouterLink} to={`/participants?q=${id}`} onClick={onFollow}>
            Participant {id}
          </Link>
        </span>
      ))}
    </Alert>
  );
}
