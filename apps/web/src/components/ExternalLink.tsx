import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { ReactNode } from 'react';
import { visuallyHidden } from '../lib/a11y';

/** A link to another site, opened in a new tab, which screen readers are told about. */
export function ExternalLink({
  href,
  children,
  label,
}: {
  href: string;
  children: ReactNode;
  label?: string;
}) {
  return (
    <Link
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={label ? `${label} (opens in a new tab)` : undefined}
    >
      {children}
      {!label && (
        <Box component="span" sx={visuallyHidden}>
          {' '}
          (opens in a new tab)
        </Box>
      )}
    </Link>
  );
}
