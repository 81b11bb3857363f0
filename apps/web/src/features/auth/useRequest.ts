import { useState } from 'react';

interface RequestOptions<TVariables, TData> {
  mutationFn: (variables: TVariables) => Promise<TData>;
  onSuccess?: (data: TData) => void;
  onError?: (error: unknown) => void;
}

/**
 * The part of react-query's `useMutation` the sign-in form uses (same names: `mutationFn`,
 * `mutate`, `isPending`), without react-query: the sign-in page is the console's first download
 * and loads neither react-query nor react-router (see main.tsx). The form's failures never reach
 * the query cache's "session ended" handler, as `meta.handlesUnauthorized` used to ensure.
 */
export function useRequest<TVariables, TData>({
  mutationFn,
  onSuccess,
  onError,
}: RequestOptions<TVariables, TData>) {
  const [isPending, setPending] = useState(false);
  const mutate = (variables: TVariables) => {
    setPending(true);
    mutationFn(variables).then(
      (data) => {
        onSuccess?.(data);
        setPending(false);
      },
      (error: unknown) => {
        onError?.(error);
        setPending(false);
      },
    );
  };
  return { mutate, isPending };
}
