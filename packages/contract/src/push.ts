import { z } from 'zod';
import { requiredText } from './common.js';
import { limits } from './limits.js';
import { messages } from './messages.js';

const m = messages.message;

/** Message user (spec §5): a push message to the tablet of the participant holding device `uuid`. */
export const pushNotificationBody = z
  .object({
    title: requiredText(m.titleEmpty, limits.textMin, m.titleShort, 100),
    body: requiredText(m.bodyEmpty, limits.textMin, m.bodyShort, 1000),
    uuid: z
      .string({ error: messages.device.uuidEmpty })
      .trim()
      .min(1, { error: messages.device.uuidEmpty, abort: true })
      .max(100, { error: 'Must be at most 100 characters' })
      .transform((v) => v.toLowerCase()),
  })
  .meta({ id: 'PushNotification' });
export type PushNotificationBody = z.input<typeof pushNotificationBody>;
export type PushNotificationInput = z.output<typeof pushNotificationBody>;

/** The console's message-user form: the device is the participant's, not a field of the form. */
export const messageUserForm = pushNotificationBody.omit({ uuid: true }).meta({ id: 'MessageUserForm' });
