import { PageHeader } from '../../components/PageHeader';

export function DashboardPage() {
  return <PageHeader title="Dashboard" />;
}
