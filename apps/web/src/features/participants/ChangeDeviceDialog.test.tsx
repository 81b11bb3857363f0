import { NO_DEVICE, type AuthorisedDevice, type ParticipantView } from '@pathway/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { ChangeDeviceDialog } from './ChangeDeviceDialog';

const tablet: AuthorisedDevice = {
  authorized_device_id: 3,
  name: 'Ward tablet',
  uuid: '0b6f2c1e-7f3a-4c55-9d0e-2a1b3c4d5e6f',
  push_notification_id: null,
  unique_device_id: NO_DEVICE,
  participant_id: null,
  flagged_sign_in_at: null,
};

// Only the fields the dialog reads: a participant with no device goes straight to the choice.
const participant = { participant_id: 7, unique_device_id: NO_DEVICE } as ParticipantView;

describe('ChangeDeviceDialog', () => {
  it('shows why the available devices did not load, and lists them after Try again', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(jsonResponse(500, { message: 'The database is not answering' }))
      .mockResolvedValueOnce(jsonResponse(200, [tablet]));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderWithProviders(<ChangeDeviceDialog participant={participant} onClose={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Choose a device' });

    expect(await within(dialog).findByText('The database is not answering')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Assign device' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));

    expect(await within(dialog).findByRole('combobox', { name: /^Device/ })).toBeInTheDocument();
    expect(within(dialog).queryByText('The database is not answering')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Assign device' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
