import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { CreatedAdminUser } from '@pathway/contract';
import { ExternalLink } from '../../components/ExternalLink';

const apps = [
  {
    name: 'Google Authenticator',
    googlePlay: 'https://play.google.com/store/apps/details?id=com.google.android.apps.authenticator2',
    appStore: 'https://apps.apple.com/app/google-authenticator/id388497605',
  },
  {
    name: 'Microsoft Authenticator',
    googlePlay: 'https://play.google.com/store/apps/details?id=com.azure.authenticator',
    appStore: 'https://apps.apple.com/app/microsoft-authenticator/id983156458',
  },
];

/** The key inside the otpauth URL, for people who cannot scan the code. */
function setupKey(otpauthUrl: string): string | null {
  try {
    const secret = new URL(otpauthUrl).searchParams.get('secret');
    return secret ? (secret.match(/.{1,4}/g)?.join(' ') ?? secret) : null;
  } catch {
    return null;
  }
}

/**
 * The three steps of spec §2 for an admin's authenticator app: for a new admin, and again after
 * their authenticator was reset (`done` then says so).
 */
export function AuthenticatorSetup({ admin, done }: { admin: CreatedAdminUser; done?: string }) {
  const key = setupKey(admin.otpauth_url);
  return (
    <Box>
      <Alert severity="success" sx={{ mb: 2 }}>
        {done ?? `Admin user ${admin.user_name} has been added. They need an authenticator app to sign in.`}
      </Alert>
      <Box component="ol" sx={{ pl: 3, m: 0, '& > li': { mb: 2 } }}>
        <li>
          <Typography>
            Install an authenticator app on their phone, for example{' '}
            {apps.map((app, index) => (
              <span key={app.name}>
                {index > 0 && ' or '}
                {app.name} (
                <ExternalLink href={app.googlePlay} label={`${app.name} on Google Play`}>
                  Google Play
                </ExternalLink>
                ,{' '}
                <ExternalLink href={app.appStore} label={`${app.name} on the App Store`}>
                  App Store
                </ExternalLink>
                )
              </span>
            ))}
            .
          </Typography>
        </li>
        <li>
          <Typography sx={{ mb: 1 }}>Scan this QR code with the app.</Typography>
          <Box
            component="img"
            src={admin.qr_code}
            alt={`QR code that adds ${admin.user_name} to an authenticator app`}
            width={240}
            height={240}
            sx={{ display: 'block', border: 1, borderColor: 'divider', borderRadius: 1 }}
          />
          {key && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              Cannot scan it? Enter this key in the app instead:{' '}
              <Box component="code" sx={{ fontFamily: 'monospace', color: 'text.primary' }}>
                {/* Groups of four stay whole; a narrow screen wraps between groups only. */}
                {key.split(' ').map((group, i) => (
                  <Box component="span" key={i} sx={{ whiteSpace: 'nowrap' }}>
                    {i > 0 && ' '}
                    {group}
                  </Box>
                ))}
              </Box>
            </Typography>
          )}
        </li>
        <li>
          <Typography>
            Close this window after a successful scan. The QR code will not be shown again.
          </Typography>
        </li>
      </Box>
    </Box>
  );
}
