import { PageHeader } from '../../components/PageHeader';

export function AuthorisedDevicesPage() {
  return <PageHeader title="Authorised mobile devices" />;
}
