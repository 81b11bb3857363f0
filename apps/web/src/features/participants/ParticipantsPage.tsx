import { PageHeader } from '../../components/PageHeader';

export function ParticipantsPage() {
  return <PageHeader title="Participants" />;
}
