import type { ChangePasswordBody } from '@pathway/contract';
import { useMutation } from '@tanstack/react-query';
import { apiJson } from '../../lib/api';

/** Changes the signed-in admin's own password; the server then ends every session of theirs. */
export function useChangeOwnPassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      apiJson<{ message: string }>('/api/account/password', { method: 'POST', body }),
  });
}
