import AddIcon from '@mui/icons-material/Add';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import StoreOutlinedIcon from '@mui/icons-material/StoreOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import Tooltip from '@mui/material/Tooltip';
import type { Organisation, Site } from '@pathway/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { PageSection } from '../../components/PageSection';
import { ACTIONS_COLUMN, PagedTable } from '../../components/PagedTable';
import { formatDate } from '../../lib/dates';
import { organisationsQuery, sitesQuery } from '../../lib/organisations';
import { OrganisationDialog, SiteDialog } from './OrganisationDialogs';

type OpenDialog =
  | { kind: 'add-organisation' }
  | { kind: 'edit-organisation'; organisation: Organisation }
  | { kind: 'add-site'; organisation: Organisation }
  | { kind: 'edit-site'; organisation: Organisation; site: Site }
  | null;

const ORGANISATION_COLUMNS = ['Name', 'ODS code', 'Sites', 'Participants', 'Added', ACTIONS_COLUMN];
const SITE_COLUMNS = ['Site', 'ODS code', 'Added', ACTIONS_COLUMN];

function EditButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Tooltip title="Edit" describeChild>
      <IconButton aria-label={`Edit ${name}`} onClick={onClick}>
        <EditOutlinedIcon />
      </IconButton>
    </Tooltip>
  );
}

/** One organisation's sites: each admin of it sees those they are given (none: every one). */
function SitesSection({
  organisation,
  onAdd,
  onEdit,
}: {
  organisation: Organisation;
  onAdd: () => void;
  onEdit: (site: Site) => void;
}) {
  const sites = useQuery(sitesQuery(organisation.organisation_id));
  return (
    <PageSection
      headingId="organisation-sites-heading"
      title={`Sites of ${organisation.name}`}
      actions={
        <Button variant="outlined" startIcon={<AddIcon />} onClick={onAdd}>
          Add site
        </Button>
      }
      description="Each participant belongs to one site; an admin may be limited to some sites of their organisation."
    >
      <PagedTable
        query={sites}
        loadingLabel="Loading sites"
        label={`Sites of ${organisation.name}`}
        minWidth={560}
        columns={SITE_COLUMNS}
        rowKey={(site) => site.site_id}
        empty="No sites yet."
        renderRow={(site) => (
          <>
            <TableCell>{site.name}</TableCell>
            <TableCell>{site.ods_code ?? '—'}</TableCell>
            <TableCell>{formatDate(site.created_at)}</TableCell>
            <TableCell align="right">
              <EditButton name={site.name} onClick={() => onEdit(site)} />
            </TableCell>
          </>
        )}
      />
    </PageSection>
  );
}

/**
 * The instance's organisations and their sites, for system administrators: they make and rename
 * them and read counts only, never a participant record.
 */
export function OrganisationsPage() {
  const organisations = useQuery(organisationsQuery);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const close = () => setDialog(null);
  const selected = organisations.data?.find((o) => o.organisation_id === selectedId);

  return (
    <>
      <PageHeader
        title="Organisations"
        actions={
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setDialog({ kind: 'add-organisation' })}
          >
            Add organisation
          </Button>
        }
      >
        The organisations that run a programme on this instance, and their sites. Add an organisation&apos;s
        first admin on the Admin Users page.
      </PageHeader>

      <PagedTable
        query={organisations}
        loadingLabel="Loading organisations"
        label="Organisations"
        minWidth={760}
        columns={ORGANISATION_COLUMNS}
        rowKey={(organisation) => organisation.organisation_id}
        rowProps={(organisation) => (organisation.organisation_id === selectedId ? { selected: true } : {})}
        empty="No organisations yet."
        renderRow={(organisation) => (
          <>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{organisation.name}</TableCell>
            <TableCell>{organisation.ods_code ?? '—'}</TableCell>
            <TableCell>{organisation.sites}</TableCell>
            <TableCell>{organisation.participants}</TableCell>
            <TableCell>{formatDate(organisation.created_at)}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <Tooltip title="Sites" describeChild>
                <IconButton
                  aria-label={`Sites of ${organisation.name}`}
                  aria-pressed={organisation.organisation_id === selectedId}
                  onClick={() => setSelectedId(organisation.organisation_id)}
                >
                  <StoreOutlinedIcon />
                </IconButton>
              </Tooltip>
              <EditButton
                name={organisation.name}
                onClick={() => setDialog({ kind: 'edit-organisation', organisation })}
              />
            </TableCell>
          </>
        )}
      />

      {selected && (
        <SitesSection
          organisation={selected}
          onAdd={() => setDialog({ kind: 'add-site', organisation: selected })}
          onEdit={(site) => setDialog({ kind: 'edit-site', organisation: selected, site })}
        />
      )}

      {dialog?.kind === 'add-organisation' && <OrganisationDialog onClose={close} />}
      {dialog?.kind === 'edit-organisation' && (
        <OrganisationDialog organisation={dialog.organisation} onClose={close} />
      )}
      {dialog?.kind === 'add-site' && (
        <SiteDialog organisationId={dialog.organisation.organisation_id} onClose={close} />
      )}
      {dialog?.kind === 'edit-site' && (
        <SiteDialog organisationId={dialog.organisation.organisation_id} site={dialog.site} onClose={close} />
      )}
    </>
  );
}
