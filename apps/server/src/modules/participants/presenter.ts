import {
  FULL_ACCESS,
  NO_DEVICE,
  maskDeviceUuid,
  type ParticipantBasic,
  type ParticipantView,
  type Referral,
  type Role,
} from '@pathway/contract';
import type { participants } from '../../db/schema.js';

/** The columns the grid and the participant view read (see participantColumns). */
export type ParticipantRow = Pick<
  typeof participants.$inferSelect,
  | 'participant_id'
  | 'gender'
  | 'language'
  | 'days_behind'
  | 'push_notification_id'
  | 'purge_cache'
  | 'created_at'
  | 'updated_at'
  | 'first_name'
  | 'last_name'
  | 'date_of_birth'
  | 'email'
  | 'phone_number'
  | 'phone_number_secondary'
  | 'address'
  | 'notes'
  | 'last_ip_address'
  | 'tablet_last_contact_at'
> & {
  device_uuid: string | null;
  device_name: string | null;
};

/**
 * The one place that decides what an admin sees of a participant. A basic-access admin gets no
 * identifiable field at all (not even empty ones); referral data is presented on its own route.
 */
export function presentParticipant(row: ParticipantRow, role: Role): ParticipantView {
  const basic: ParticipantBasic = {
    participant_id: row.participant_id,
    gender: row.gender === 'male' || row.gender === 'female' ? row.gender : null,
    language: row.language,
    unique_device_id:
      row.device_uuid === null
        ? NO_DEVICE
        : role === FULL_ACCESS
          ? row.device_uuid
          : maskDeviceUuid(row.device_uuid),
    name: row.device_name,
    days_behind: row.days_behind,
    push_notification_id: row.push_notification_id,
    purge_cache: row.purge_cache,
    tablet_last_contact_at: row.tablet_last_contact_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
  if (role !== FULL_ACCESS) return basic;
  return {
    ...basic,
    first_name: row.first_name,
    last_name: row.last_name,
    date_of_birth: row.date_of_birth,
    email: row.email,
    phone_number: row.phone_number,
    phone_number_secondary: row.phone_number_secondary,
    address: row.address,
    notes: row.notes,
    last_ip_address: row.last_ip_address,
  };
}

export function presentReferral(row: typeof participants.$inferSelect): Referral {
  return {
    participant_id: row.participant_id,
    programme_referred_to: row.programme_referred_to,
    referring_organisation: row.referring_organisation,
    referring_healthcare_professional: row.referring_healthcare_professional,
    referring_healthcare_professional_role: row.referring_healthcare_professional_role,
    checked_contraindications_to_exercise: row.checked_contraindications_to_exercise,
    smoker: row.smoker,
    diabetes: row.diabetes,
    registered_deaf: row.registered_deaf,
  };
}
