import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { SSO_STEP_UP_CHANNEL, messages, ssoRefusalMessage } from '@pathway/contract';
import { useEffect, useState } from 'react';

/** What the step-up window tells the console's window. */
export interface StepUpResult {
  ok: boolean;
  message: string;
}

/**
 * Where a step-up through the identity provider ends, in the window the step-up dialog opened:
 * it tells the console's window the result (a broadcast channel of this origin), then closes. A
 * refusal comes with its reason's code (`?sso=`), never a text.
 */
export function StepUpDonePage() {
  const [result] = useState<StepUpResult>(() => {
    const refusal = ssoRefusalMessage(new URLSearchParams(window.location.search).get('sso'));
    return refusal ? { ok: false, message: refusal } : { ok: true, message: messages.sso.stepUpDone };
  });

  useEffect(() => {
    document.title = 'Confirm it is you - Pathway';
    const channel = new BroadcastChannel(SSO_STEP_UP_CHANNEL);
    channel.postMessage(result);
    channel.close();
    if (result.ok) window.close();
  }, [result]);

  return (
    <Box component="main" sx={{ p: 4, maxWidth: 560 }}>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Confirm it is you
      </Typography>
      <Alert severity={result.ok ? 'success' : 'error'} role={result.ok ? 'status' : 'alert'}>
        {result.message}
      </Alert>
    </Box>
  );
}
