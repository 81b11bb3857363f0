import { PageHeader } from '../../components/PageHeader';

export function ManageVideosPage() {
  return <PageHeader title="Manage videos" />;
}
