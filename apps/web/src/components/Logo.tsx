import Box from '@mui/material/Box';
import logoUrl from '../assets/pathway-logo.svg';

/** Our mark. `onDark` sets it on a white tile, so it stands out on the blue bars. */
export function Logo({
  size = 40,
  alt = 'Pathway logo',
  onDark = false,
}: {
  size?: number;
  alt?: string;
  onDark?: boolean;
}) {
  const image = <img src={logoUrl} width={size} height={size} alt={alt} style={{ display: 'block' }} />;
  if (!onDark) return image;
  return (
    <Box sx={{ bgcolor: 'common.white', p: '2px', borderRadius: `${Math.round(size / 4)}px`, flexShrink: 0 }}>
      {image}
    </Box>
  );
}
