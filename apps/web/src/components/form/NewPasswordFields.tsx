import { limits } from '@pathway/contract';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { FormTextField } from './FormTextField';

/** The fields a form with a new password holds; their rules are the contract's. */
export interface NewPasswordValues extends FieldValues {
  new_password: string;
  confirm_password: string;
}

/**
 * A new password typed twice (a typo would lock its owner out): used where admins change their
 * own password and where full access resets someone else's.
 */
export function NewPasswordFields<T extends NewPasswordValues>({
  control,
  idPrefix,
  whose,
  autoFocus = false,
}: {
  control: Control<T>;
  /** e.g. 'change-password': the fields are `${idPrefix}-new` and `${idPrefix}-confirm`. */
  idPrefix: string;
  /** Whose username the password may not hold, as the hint says it: 'your' or 'the'. */
  whose: 'your' | 'the';
  autoFocus?: boolean;
}) {
  return (
    <>
      <FormTextField
        control={control}
        name={'new_password' as Path<T>}
        id={`${idPrefix}-new`}
        label="New password"
        type="password"
        required
        autoFocus={autoFocus}
        autoComplete="new-password"
        hint={`At least ${limits.passwordMin} characters; not a common password or one with ${whose} username in it`}
      />
      <FormTextField
        control={control}
        name={'confirm_password' as Path<T>}
        id={`${idPrefix}-confirm`}
        label="New password again"
        type="password"
        required
        autoComplete="new-password"
      />
    </>
  );
}
