import { apiRoutes, type ChangePasswordBody } from '@pathway/contract';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../lib/api';

/** Changes the signed-in admin's own password; the server then ends every session of theirs. */
export function useChangeOwnPassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => call(apiRoutes.auth.changeOwnPassword, { body }),
  });
}
