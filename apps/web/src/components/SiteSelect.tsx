import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import type { SiteFilter } from '../lib/siteFilter';

/**
 * The site selector of a page whose figures or lists the admin may narrow to one of their sites;
 * nothing at all for an admin who sees one site (one organisation with one site stays as it was).
 */
export function SiteSelect({ filter, onChange }: { filter: SiteFilter; onChange?: () => void }) {
  const id = useId();
  if (filter.sites.length <= 1) return null;
  return (
    <TextField
      select
      fullWidth={false}
      size="small"
      id={`${id}-site`}
      label="Site"
      value={filter.siteId === undefined ? '' : String(filter.siteId)}
      onChange={(event) => {
        onChange?.();
        filter.setSiteId(event.target.value === '' ? undefined : Number(event.target.value));
      }}
      helperText={filter.siteLabel ? `${filter.siteLabel} only` : 'Every site you work at'}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={{ minWidth: 220, maxWidth: '100%' }}
    >
      <MenuItem value="">Every site</MenuItem>
      {filter.sites.map((site) => (
        <MenuItem key={site.site_id} value={String(site.site_id)}>
          {site.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * Says plainly that a page shows one site only, so an empty list or a low figure is never read as
 * the whole programme's (docs/clinical-safety/hazard-log.md), with the way back to every site.
 */
export function SiteFilterNotice({ filter, unseen }: { filter: SiteFilter; unseen: string }) {
  if (filter.siteLabel === null) return null;
  return (
    <Alert
      severity="info"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" onClick={() => filter.setSiteId(undefined)}>
          Show every site
        </Button>
      }
    >
      {`Showing ${filter.siteLabel} only: ${unseen}.`}
    </Alert>
  );
}
