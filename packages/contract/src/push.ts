import { z } from 'zod';
import { requiredText } from './common.js';
import { limits } from './limits.js';
import { messages } from './messages.js';

const m = messages.message;

const messageFields = z.object({
  title: requiredText(m.titleEmpty, limits.textMin, m.titleShort, 100),
  body: requiredText(m.bodyEmpty, limits.textMin, m.bodyShort, 1000),
  uuid: z
    .string({ error: messages.device.uuidEmpty })
    .trim()
    .min(1, { error: messages.device.uuidEmpty, abort: true })
    .max(100, { error: 'Must be at most 100 characters' })
    .transform((v) => v.toLowerCase())
    .optional(),
  participant_id: z.coerce
    .number({ error: 'The participant id must be a whole number' })
    .int({ error: 'The participant id must be a whole number' })
    .positive({ error: 'The participant id must be a whole number' })
    .max(2147483647, { error: 'The participant id is out of range' })
    .optional()
    .describe('The participant instead of the uuid: basic access sees assigned uuids masked'),
});

/**
 * Message user (spec §5): a push message to the tablet of the participant holding device `uuid`,
 * or of `participant_id` (the console sends this: a basic-access admin never holds the uuid).
 */
export const pushNotificationBody = messageFields
  .refine((b) => b.uuid !== undefined || b.participant_id !== undefined, {
    error: messages.device.uuidEmpty,
    path: ['uuid'],
  })
  .meta({ id: 'PushNotification' });
export type PushNotificationBody = z.input<typeof pushNotificationBody>;
export type PushNotificationInput = z.output<typeof pushNotificationBody>;

/** The console's message-user form: the device is the participant's, not a field of the form. */
export const messageUserForm = messageFields
  .omit({ uuid: true, participant_id: true })
  .meta({ id: 'MessageUserForm' });
