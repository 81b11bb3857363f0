import { apiRoutes, messages } from '@pathway/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/render';
import { ApiError, call, pathOf } from './api';

afterEach(() => vi.unstubAllGlobals());

describe('pathOf', () => {
  it("fills in the entry's path parameters, encoded", () => {
    expect(pathOf(apiRoutes.participants.get, { params: { id: 7 } })).toBe('/api/participant/7');
    expect(
      pathOf(apiRoutes.admins.resetPassword, { params: { user_name: 'a/b c' }, body: { new_password: 'x' } }),
    ).toBe('/api/admin/a%2Fb%20c/reset-password');
    expect(pathOf(apiRoutes.progress.summary, { params: { videoSetId: 3, participantId: 9 } })).toBe(
      '/api/participationprogress/summary/3/participant/9',
    );
  });

  it('writes the query it is given and leaves out what is undefined', () => {
    expect(pathOf(apiRoutes.audit.list, { query: { page: 2, perPage: 50, action: undefined } })).toBe(
      '/api/audit?page=2&perPage=50',
    );
    expect(pathOf(apiRoutes.devices.signIns, { query: { page: 1, perPage: 25, flagged: 'true' } })).toBe(
      '/api/devicesignins?page=1&perPage=25&flagged=true',
    );
    expect(pathOf(apiRoutes.audit.export, { query: {} })).toBe('/api/audit/export');
    expect(pathOf(apiRoutes.dashboard.get)).toBe('/api/dashboard');
  });
});

describe('call', () => {
  it("sends the entry's method and the body as JSON, and answers the parsed body", async () => {
    const fetchMock = vi.fn(async () => jsonResponse(201, { authorized_device_id: 4 }));
    vi.stubGlobal('fetch', fetchMock);
    const answer = await call(apiRoutes.devices.create, { body: { name: 'Tab', uuid: 'abc' } });
    expect(answer).toEqual({ authorized_device_id: 4 });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/authorizeddevices',
      expect.objectContaining({
        method: 'POST',
        body: JSON.stringify({ name: 'Tab', uuid: 'abc' }),
        credentials: 'include',
      }),
    );
  });

  it("turns a refusal into an ApiError with the server's message", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(404, { message: messages.participant.notFound })),
    );
    const refusal = call(apiRoutes.participants.remove, { params: { id: 12 } });
    await expect(refusal).rejects.toBeInstanceOf(ApiError);
    await expect(refusal).rejects.toMatchObject({ status: 404, message: messages.participant.notFound });
  });
});

// Checked by the typecheck, never run: the table's types reach the caller.
export function typeChecks() {
  // @ts-expect-error the participant's id is a path parameter the call needs
  void call(apiRoutes.participants.get);
  // @ts-expect-error the id is a number
  void call(apiRoutes.participants.get, { params: { id: 'seven' } });
  // @ts-expect-error this route takes no body
  void call(apiRoutes.participants.remove, { params: { id: 1 }, body: { x: 1 } });
  // @ts-expect-error sort is one of the contract's sorts
  void call(apiRoutes.participants.list, { query: { sort: 'email' } });
  void call(apiRoutes.participants.list, { query: { sort: 'last_name', order: 'desc' } });
}
