import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A section of a page: its h2 with the section's actions beside it, a line about it, then its content. */
export function PageSection({
  headingId,
  title,
  actions,
  description,
  children,
}: {
  /** The heading's id, which names the section. */
  headingId: string;
  title: string;
  actions?: ReactNode;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={headingId}>
      <Stack
        direction="row"
        sx={{ mt: 4, mb: 1, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
      >
        <Typography id={headingId} variant="h2">
          {title}
        </Typography>
        {actions}
      </Stack>
      <Typography sx={{ mb: 2 }}>{description}</Typography>
      {children}
    </section>
  );
}
