import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import Tooltip from '@mui/material/Tooltip';
import type { ReactNode } from 'react';

interface RowActionsProps {
  /** What the row shows its item as; the buttons are labelled "Edit <name>" and "Delete <name>". */
  name: string;
  onEdit: () => void;
  onDelete: () => void;
  /** A page's own actions for the row, shown before Edit and Delete. */
  children?: ReactNode;
}

/**
 * The Actions cell of a table row: the page's own actions, then the Edit and Delete icon buttons.
 * The labels name the row's item, so a screen reader (and a browser test) can tell the rows' buttons apart.
 */
export function RowActions({ name, onEdit, onDelete, children }: RowActionsProps) {
  return (
    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
      {children}
      <Tooltip title="Edit" describeChild>
        <IconButton aria-label={`Edit ${name}`} onClick={onEdit}>
          <EditOutlinedIcon />
        </IconButton>
      </Tooltip>
      <Tooltip title="Delete" describeChild>
        <IconButton aria-label={`Delete ${name}`} color="error" onClick={onDelete}>
          <DeleteOutlineIcon />
        </IconButton>
      </Tooltip>
    </TableCell>
  );
}
