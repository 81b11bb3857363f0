import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTIFIABLE_FIELDS, LANGUAGES, messages, todayIsoDate } from '@pathway/contract';
import { participants } from '../../db/schema.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { addParticipant, insertDevice, participantBody } from '../../../test/factories.js';

const pm = messages.participant;
const rm = messages.referral;

let t: TestApp;
let full: string;
let basic: string;

beforeAll(async () => {
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

async function participantCount(): Promise<number> {
  const [row] = await t.ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(participants);
  return row!.n;
}

function post(payload: Record<string, unknown>, cookie = full) {
  return t.app.inject({ method: 'POST', url: '/api/participant', headers: { cookie }, payload });
}

function patch(id: number, payload: Record<string, unknown>, cookie = full) {
  return t.app.inject({ method: 'PATCH', url: `/api/participant/${id}`, headers: { cookie }, payload });
}

function tomorrow(): string {
  const d = new Date();
  d.setDate(d.getDate() + 1);
  return todayIsoDate(d);
}

describe('adding a participant', () => {
  it('saves every field, links the device and starts push_notification_id as "empty"', async () => {
    const device = await insertDevice(t.ctx, { name: 'Blue tablet' });
    const body = participantBody(device.uuid.toUpperCase(), {
      phone_number_secondary: '01132 000000',
      notes: 'Prefers mornings',
      push_notification_id: 'forged',
    });
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      first_name: 'Ada',
      last_name: body.last_name,
      gender: 'female',
      date_of_birth: '1960-05-17',
      email: body.email,
      phone_number: '+447700900123',
      phone_number_secondary: '01132 000000',
      address: '1 Test Street, Leeds',
      language: 'English',
      notes: 'Prefers mornings',
      unique_device_id: device.uuid,
      name: 'Blue tablet',
      push_notification_id: 'empty',
      days_behind: 0,
      purge_cache: false,
    });
    const referral = await t.app.inject({
      method: 'GET',
      url: `/api/participant/${created.participant_id}/referral`,
      headers: { cookie: full },
    });
    expect(referral.json()).toEqual({
      participant_id: created.participant_id,
      programme_referred_to: 'pad-programme',
      referring_organisation: 'Leeds Community Practice',
      referring_healthcare_professional: 'Dr Grace Hopper',
      referring_healthcare_professional_role: 'GP',
      checked_contraindications_to_exercise: true,
      smoker: false,
      diabetes: true,
      registered_deaf: false,
    });
  });

  it('stores blank optional fields as none and accepts the boundary values', async () => {
    const device = await insertDevice(t.ctx);
    const res = await post(
      participantBody(device.uuid, {
        first_name: 'Al',
        last_name: 'Li',
        address: 'A1',
        email: '',
        gender: '',
        phone_number_secondary: '',
        notes: '   ',
        date_of_birth: '1900-01-01',
        referring_organisation: 'NH',
        referring_healthcare_professional: 'Dr',
        referring_healthcare_professional_role: 'GP',
        language: 'Other',
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      email: null,
      gender: null,
      phone_number_secondary: null,
      notes: null,
      date_of_birth: '1900-01-01',
    });
  });

  it("accepts today's date of birth, each of the 21 languages and a capitalised gender", async () => {
    expect(LANGUAGES).toHaveLength(21);
    const device = await insertDevice(t.ctx);
    const res = await post(
      participantBody(device.uuid, { date_of_birth: todayIsoDate(), gender: 'Male', language: 'Romanian' }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ date_of_birth: todayIsoDate(), gender: 'male', language: 'Romanian' });
    for (const language of LANGUAGES) {
      const d = await insertDevice(t.ctx);
      expect((await post(participantBody(d.uuid, { language }))).statusCode).toBe(201);
    }
  });

  const refusals: Array<[string, unknown, string]> = [
    ['first_name', undefined, pm.firstNameEmpty],
    ['first_name', '', pm.firstNameEmpty],
    ['first_name', '   ', pm.firstNameEmpty],
    ['first_name', 'A', pm.minTwo],
    ['last_name', undefined, pm.lastNameEmpty],
    ['last_name', '', pm.lastNameEmpty],
    ['last_name', 'B', pm.minTwo],
    ['unique_device_id', undefined, pm.deviceEmpty],
    ['unique_device_id', '', pm.deviceEmpty],
    ['unique_device_id', 'x', pm.minTwo],
    ['unique_device_id', 'empty', pm.deviceEmpty],
    ['address', undefined, pm.addressEmpty],
    ['address', '', pm.addressEmpty],
    ['address', 'A', pm.minTwo],
    ['date_of_birth', undefined, pm.dobEmpty],
    ['date_of_birth', '', pm.dobEmpty],
    ['date_of_birth', '1899-12-31', pm.dobRange],
    ['date_of_birth', 'TOMORROW', pm.dobRange],
    ['date_of_birth', '2020-02-30', pm.dobFormat],
    ['date_of_birth', '17/05/1960', pm.dobFormat],
    ['phone_number', undefined, pm.phoneEmpty],
    ['phone_number', '', pm.phoneEmpty],
    ['phone_number', '+', pm.minTwo],
    ['phone_number', '+44770090012', pm.phoneFormat],
    ['phone_number', '+4477009001234', pm.phoneFormat],
    ['phone_number', '447700900123', pm.phoneFormat],
    ['phone_number', '+44 7700 900123', pm.phoneFormat],
    ['phone_number', '+44770090012a', pm.phoneFormat],
    ['language', undefined, pm.languageEmpty],
    ['language', '', pm.languageEmpty],
    ['language', 'Klingon', pm.languageInvalid],
    ['email', 'not-an-email', pm.emailInvalid],
    ['gender', 'other', pm.genderInvalid],
    ['phone_number_secondary', '1', pm.minTwo],
    ['programme_referred_to', undefined, rm.programmeEmpty],
    ['programme_referred_to', '', rm.programmeEmpty],
    ['programme_referred_to', 'other-programme', rm.programmeInvalid],
    ['referring_organisation', undefined, rm.organisationEmpty],
    ['referring_organisation', '', rm.organisationEmpty],
    ['referring_organisation', 'X', pm.minTwo],
    ['referring_healthcare_professional', '', rm.professionalEmpty],
    ['referring_healthcare_professional', 'X', pm.minTwo],
    ['referring_healthcare_professional_role', '', rm.professionalRoleEmpty],
    ['referring_healthcare_professional_role', 'X', pm.minTwo],
    ['checked_contraindications_to_exercise', undefined, rm.contraindicationsEmpty],
    ['checked_contraindications_to_exercise', null, rm.contraindicationsEmpty],
    ['smoker', undefined, rm.selectionEmpty],
    ['diabetes', null, rm.selectionEmpty],
    ['registered_deaf', 'maybe', rm.selectionEmpty],
  ];

  it.each(refusals)('refuses %s = %j with "%s" and saves nothing', async (field, value, message) => {
    const device = await insertDevice(t.ctx);
    const body = participantBody(device.uuid);
    if (value === undefined) delete body[field];
    else body[field] = value === 'TOMORROW' ? tomorrow() : value;
    const before = await participantCount();
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await participantCount()).toBe(before);
  });

  it('reports every failing field at once, each with its own message', async () => {
    const res = await post({ first_name: '', phone_number: '0113' });
    expect(res.statusCode).toBe(400);
    const errors = res.json().errors as Array<{ field: string; message: string }>;
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'first_name', message: pm.firstNameEmpty },
        { field: 'last_name', message: pm.lastNameEmpty },
        { field: 'phone_number', message: pm.phoneFormat },
        { field: 'date_of_birth', message: pm.dobEmpty },
        { field: 'language', message: pm.languageEmpty },
        { field: 'smoker', message: rm.selectionEmpty },
      ]),
    );
    expect(errors.filter((e) => e.field === 'first_name')).toHaveLength(1);
  });

  it('refuses an unknown device and a device someone else holds', async () => {
    expect((await post(participantBody('0000000000000000'))).json()).toEqual({
      message: messages.device.notFound,
    });
    const { device } = await addParticipant(t, full);
    const before = await participantCount();
    const res = await post(participantBody(device.uuid));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: messages.device.alreadyAssigned });
    expect(await participantCount()).toBe(before);
  });

  it('gives a device to exactly one of two admins adding at the same moment', async () => {
    const device = await insertDevice(t.ctx);
    const results = await Promise.all([
      post(participantBody(device.uuid)),
      post(participantBody(device.uuid)),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('is full access only', async () => {
    const device = await insertDevice(t.ctx);
    const res = await post(participantBody(device.uuid), basic);
    expect(res.statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/participant', payload: participantBody(device.uuid) }))
        .statusCode,
    ).toBe(401);
  });
});

describe('editing a participant', () => {
  it('changes only the fields sent, without the add-only phone and language rules', async () => {
    const { participant } = await addParticipant(t, full);
    const res = await patch(participant.participant_id, {
      first_name: 'Augusta',
      phone_number: '0113 496 0000',
      email: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      first_name: 'Augusta',
      phone_number: '0113 496 0000',
      email: null,
      last_name: participant.last_name,
      address: participant.address,
    });
  });

  const refusals: Array<[string, unknown, string]> = [
    ['first_name', '', pm.firstNameEmpty],
    ['first_name', 'A', pm.minTwo],
    ['last_name', ' ', pm.lastNameEmpty],
    ['address', '', pm.addressEmpty],
    ['phone_number', '', pm.phoneEmpty],
    ['phone_number', '1', pm.minTwo],
    ['date_of_birth', '', pm.dobEmpty],
    ['date_of_birth', '1899-12-31', pm.dobRange],
    ['date_of_birth', 'TOMORROW', pm.dobRange],
    ['language', 'Klingon', pm.languageInvalid],
    ['language', '', pm.languageEmpty],
    ['unique_device_id', '', pm.deviceEmpty],
    ['programme_referred_to', '', rm.programmeEmpty],
    ['programme_referred_to', 'x-programme', rm.programmeInvalid],
    ['referring_organisation', '', rm.organisationEmpty],
    ['referring_healthcare_professional', 'X', pm.minTwo],
    ['referring_healthcare_professional_role', '', rm.professionalRoleEmpty],
    ['checked_contraindications_to_exercise', null, rm.contraindicationsEmpty],
    ['smoker', '', rm.selectionEmpty],
    ['diabetes', null, rm.selectionEmpty],
    ['registered_deaf', 'yes please', rm.selectionEmpty],
  ];

  it.each(refusals)('refuses %s = %j with "%s" and changes nothing', async (field, value, message) => {
    const { participant } = await addParticipant(t, full);
    const res = await patch(participant.participant_id, {
      notes: 'changed',
      [field]: value === 'TOMORROW' ? tomorrow() : value,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/participant/${participant.participant_id}`,
      headers: { cookie: full },
    });
    expect(after.json()).toEqual(participant);
  });

  it('edits the referral through the participant route, accepting form-style booleans', async () => {
    const { participant } = await addParticipant(t, full);
    const res = await patch(participant.participant_id, {
      referring_organisation: 'Harrogate Clinic',
      smoker: 'true',
      registered_deaf: true,
      checked_contraindications_to_exercise: false,
    });
    expect(res.statusCode).toBe(200);
    const referral = await t.app.inject({
      method: 'GET',
      url: `/api/participant/${participant.participant_id}/referral`,
      headers: { cookie: full },
    });
    expect(referral.json()).toMatchObject({
      referring_organisation: 'Harrogate Clinic',
      smoker: true,
      registered_deaf: true,
      checked_contraindications_to_exercise: false,
      diabetes: true,
    });
  });

  it('sets and clears purge_cache', async () => {
    const { participant } = await addParticipant(t, full);
    expect((await patch(participant.participant_id, { purge_cache: true })).json().purge_cache).toBe(true);
    expect((await patch(participant.participant_id, { purge_cache: 'false' })).json().purge_cache).toBe(
      false,
    );
  });

  it('refuses an empty change, an unknown participant and a malformed id', async () => {
    const { participant } = await addParticipant(t, full);
    expect((await patch(participant.participant_id, {})).json()).toEqual({ message: pm.nothingToChange });
    const missing = await patch(2_000_000_000, { first_name: 'Nobody' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: pm.notFound });
    expect((await patch(0, { first_name: 'Nobody' })).statusCode).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: '/api/participant/1;drop',
          headers: { cookie: full },
          payload: { first_name: 'xx' },
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('deleting a participant', () => {
  it('deletes, frees the device, and answers 404 afterwards', async () => {
    const { participant, device } = await addParticipant(t, full);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/participant/${participant.participant_id}`,
      headers: { cookie: full },
    });
    expect(res.statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/participant/${participant.participant_id}`,
          headers: { cookie: full },
        })
      ).statusCode,
    ).toBe(404);
    const available = await t.app.inject({
      method: 'GET',
      url: '/api/authorizeddevices/available',
      headers: { cookie: full },
    });
    expect(available.json().map((d: { uuid: string }) => d.uuid)).toContain(device.uuid);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/participant/${participant.participant_id}`,
      headers: { cookie: full },
    });
    expect(again.statusCode).toBe(404);
  });

  it('is full access only', async () => {
    const { participant } = await addParticipant(t, full);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/participant/${participant.participant_id}`,
      headers: { cookie: basic },
    });
    expect(res.statusCode).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/participant/${participant.participant_id}`,
          headers: { cookie: full },
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('what a basic-access admin receives', () => {
  /** No identifiable field name may appear anywhere in the raw body, not even with a null value. */
  function expectNoIdentifiableField(body: string) {
    for (const field of IDENTIFIABLE_FIELDS) expect(body).not.toContain(`"${field}"`);
  }

  it('lists, reads and edits participants without any identifiable field', async () => {
    const { participant, device } = await addParticipant(t, full);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/participant?perPage=500',
      headers: { cookie: basic },
    });
    expect(list.statusCode).toBe(200);
    expectNoIdentifiableField(list.body);
    const row = list
      .json()
      .data.find((p: { participant_id: number }) => p.participant_id === participant.participant_id);
    expect(row).toMatchObject({
      // Masked: with the whole uuid call 1 would answer the participant's name.
      unique_device_id: `…${device.uuid.slice(-4)}`,
      name: device.name,
      language: 'English',
      gender: 'female',
    });
    expect(list.body).not.toContain(device.uuid);

    const one = await t.app.inject({
      method: 'GET',
      url: `/api/participant/${participant.participant_id}`,
      headers: { cookie: basic },
    });
    expect(one.statusCode).toBe(200);
    expectNoIdentifiableField(one.body);

    const edited = await patch(
      participant.participant_id,
      { language: 'Polish', gender: 'male', purge_cache: true },
      basic,
    );
    expect(edited.statusCode).toBe(200);
    expectNoIdentifiableField(edited.body);
    expect(edited.json()).toMatchObject({ language: 'Polish', gender: 'male', purge_cache: true });

    const devices = await t.app.inject({
      method: 'GET',
      url: '/api/authorizeddevices',
      headers: { cookie: basic },
    });
    expectNoIdentifiableField(devices.body);
    const byUuid = await t.app.inject({
      method: 'GET',
      url: `/api/authorizeddevices/${device.uuid}`,
      headers: { cookie: basic },
    });
    expect(byUuid.json()).toEqual([expect.objectContaining({ participant_id: participant.participant_id })]);
    expectNoIdentifiableField(byUuid.body);
  });

  it('cannot change identifiable or referral fields, even along with allowed ones', async () => {
    const { participant } = await addParticipant(t, full);
    for (const change of [
      { first_name: 'Changed' },
      { date_of_birth: '1970-01-01' },
      { phone_number_secondary: '' },
      { notes: 'x' },
      { smoker: true },
      { language: 'Polish', address: 'New Road 1' },
    ]) {
      const res = await patch(participant.participant_id, change, basic);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: pm.identifiableForbidden });
    }
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/participant/${participant.participant_id}`,
      headers: { cookie: full },
    });
    expect(after.json()).toEqual(participant);
  });

  it('cannot read a referral, sort by identifiable columns or search by name', async () => {
    const { participant } = await addParticipant(t, full, { last_name: 'Zebedee' });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/participant/${participant.participant_id}/referral`,
          headers: { cookie: basic },
        })
      ).statusCode,
    ).toBe(403);
    for (const sort of ['first_name', 'last_name', 'date_of_birth']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/participant?sort=${sort}`,
        headers: { cookie: basic },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: pm.sortForbidden });
    }
    const byName = await t.app.inject({
      method: 'GET',
      url: '/api/participant?q=Zebedee',
      headers: { cookie: basic },
    });
    expect(byName.json().data).toEqual([]);
    const byNameFull = await t.app.inject({
      method: 'GET',
      url: '/api/participant?q=zebedee',
      headers: { cookie: full },
    });
    expect(byNameFull.json().data.map((p: { participant_id: number }) => p.participant_id)).toEqual([
      participant.participant_id,
    ]);
  });
});

describe('the OpenAPI document', () => {
  it('describes the participant, its basic view, the referral and the list', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json();
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.Referral.properties)).toEqual(
      expect.arrayContaining(['programme_referred_to', 'smoker', 'registered_deaf']),
    );
    expect(Object.keys(schemas.Participant.properties)).toEqual(
      expect.arrayContaining(['first_name', 'date_of_birth', 'unique_device_id']),
    );
    expect(Object.keys(schemas.ParticipantBasic.properties)).not.toContain('first_name');
    expect(doc.paths['/api/participant/{id}/referral'].get).toBeDefined();
    expect(doc.paths['/api/participant'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'perPage', 'state', 'sort', 'order', 'q', 'after']),
    );
    expect(doc.paths['/api/pushNotifications'].post).toBeDefined();
  });
});
