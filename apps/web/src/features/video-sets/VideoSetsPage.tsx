import { PageHeader } from '../../components/PageHeader';

export function VideoSetsPage() {
  return <PageHeader title="Video Sets" />;
}
