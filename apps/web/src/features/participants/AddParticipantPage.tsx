import { PageHeader } from '../../components/PageHeader';

export function AddParticipantPage() {
  return <PageHeader title="Add participant" />;
}
