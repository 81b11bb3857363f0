import { alpha, createTheme, type Theme } from '@mui/material/styles';

/** NHS identity colours (https://service-manual.nhs.uk/design-system/styles/colour). */
export const nhsColours = {
  blue: '#005EB8',
  darkBlue: '#003087',
  brightBlue: '#0072CE',
  lightBlue: '#41B6E6',
  green: '#007F3B',
  red: '#D5281B',
  black: '#212B32',
  darkGrey: '#4C6272',
  paleGrey: '#F0F4F5',
  white: '#FFFFFF',
} as const;

const fontFamily = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  '"Liberation Sans"',
  'sans-serif',
].join(',');

/**
 * The console's theme. With `reducedMotion` (the user's system setting) every transition and
 * ripple is switched off, which also makes screens settle at once for the browser tests.
 */
export function createAppTheme({ reducedMotion = false }: { reducedMotion?: boolean } = {}): Theme {
  return createTheme({
    palette: {
      primary: { main: nhsColours.blue, dark: nhsColours.darkBlue, contrastText: nhsColours.white },
      secondary: { main: nhsColours.darkBlue, contrastText: nhsColours.white },
      error: { main: nhsColours.red, contrastText: nhsColours.white },
      success: { main: nhsColours.green, contrastText: nhsColours.white },
      text: { primary: nhsColours.black, secondary: nhsColours.darkGrey },
      background: { default: nhsColours.paleGrey, paper: nhsColours.white },
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily,
      h1: { fontSize: '1.75rem', fontWeight: 700, lineHeight: 1.25 },
      h2: { fontSize: '1.375rem', fontWeight: 700, lineHeight: 1.3 },
      h3: { fontSize: '1.125rem', fontWeight: 700, lineHeight: 1.35 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    ...(reducedMotion && {
      transitions: {
        create: () => 'none',
        getAutoHeightDuration: () => 0,
        duration: {
          shortest: 0,
          shorter: 0,
          short: 0,
          standard: 0,
          complex: 0,
          enteringScreen: 0,
          leavingScreen: 0,
        },
      },
    }),
    components: {
      MuiButtonBase: { defaultProps: { disableRipple: reducedMotion } },
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiLink: { defaultProps: { underline: 'always' } },
      MuiTableCell: {
        styleOverrides: {
          head: ({ theme }) => ({
            fontWeight: 700,
            backgroundColor: alpha(theme.palette.primary.main, 0.06),
          }),
        },
      },
      MuiDialogTitle: { defaultProps: { component: 'h2' } },
      MuiTextField: { defaultProps: { fullWidth: true } },
    },
  });
}
