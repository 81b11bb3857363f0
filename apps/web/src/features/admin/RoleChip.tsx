import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { ROLES, ROLE_LABELS, type Role } from '@pathway/contract';
import { forwardRef } from 'react';

export function roleLabel(role: Role): string {
  return ROLE_LABELS[role];
}

/** Access level badge: red for full access, green for basic access (spec §2). */
const ROLE_COLORS: Record<Role, 'error' | 'success'> = { 'full access': 'error', 'basic access': 'success' };

export function RoleChip({ role }: { role: Role }) {
  return <Chip size="small" label={roleLabel(role)} color={ROLE_COLORS[role]} />;
}

export const RoleSelect = forwardRef<HTMLDivElement, TextFieldProps>(function RoleSelect(props, ref) {
  return (
    <TextField ref={ref} select label="Access level" {...props}>
      {ROLES.map((role) => (
        <MenuItem key={role} value={role}>
          {roleLabel(role)}
        </MenuItem>
      ))}
    </TextField>
  );
});
