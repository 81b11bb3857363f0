import CssBaseline from '@mui/material/CssBaseline';
import useMediaQuery from '@mui/material/useMediaQuery';
import { ThemeProvider } from '@mui/system';
import { useMemo, type ReactNode } from 'react';
import { createAppTheme } from './theme';

/**
 * The console's theme and baseline styles, around the sign-in page and the console alike.
 *
 * The theme has no CSS variables and no colour schemes, for which @mui/material's ThemeProvider
 * hands it to this provider of @mui/system anyway; that one alone keeps the CSS-variables provider
 * it would also bundle out of the sign-in page's download (bench/sys-bundle.ts).
 */
export function ConsoleTheme({ children }: { children: ReactNode }) {
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)', { noSsr: true });
  const theme = useMemo(() => createAppTheme({ reducedMotion }), [reducedMotion]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
