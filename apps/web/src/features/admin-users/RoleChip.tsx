import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { FULL_ACCESS, ROLES, type Role } from '@pathway/contract';
import { forwardRef } from 'react';

export function roleLabel(role: Role): string {
  return role === FULL_ACCESS ? 'Full access' : 'Basic access';
}

/** Access level badge: red for full access, green otherwise (spec §2). */
export function RoleChip({ role }: { role: Role }) {
  return <Chip size="small" label={roleLabel(role)} color={role === FULL_ACCESS ? 'error' : 'success'} />;
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
