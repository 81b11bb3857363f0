import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableRow from '@mui/material/TableRow';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RowActions } from './RowActions';

describe('RowActions', () => {
  it("shows the page's own actions, then Edit and Delete labelled with the row's item", async () => {
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    const user = userEvent.setup();
    render(
      <Table>
        <TableBody>
          <TableRow>
            <RowActions name="Strength" onEdit={onEdit} onDelete={onDelete}>
              <button type="button">Manage Videos of Strength</button>
            </RowActions>
          </TableRow>
        </TableBody>
      </Table>,
    );

    expect(screen.getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual([
      'Manage Videos of Strength',
      'Edit Strength',
      'Delete Strength',
    ]);
    await user.click(screen.getByRole('button', { name: 'Edit Strength' }));
    expect(onEdit).toHaveBeenCalledOnce();
    expect(onDelete).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Delete Strength' }));
    expect(onDelete).toHaveBeenCalledOnce();
  });
});
