import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { Organisation, Site } from '@pathway/contract';
import { expect, signInOnPage, withStepUp, type BootstrapAdmin, type TestAdmin } from './fixtures';
import { uniqueWord } from './register-data';

// Organisations and sites made for a test, and a second admin signed in beside the test's own.

/** An ODS code no other test uses: 5 capitals and digits. */
export function uniqueOdsCode(): string {
  return `Z${Math.random().toString(36).slice(2, 6).toUpperCase().padEnd(4, '0')}`;
}

/** A new organisation with a second site, through the API. */
export async function addOrganisationWithTwoSites(api: APIRequestContext, setupAdmin: BootstrapAdmin) {
  const name = uniqueWord('Trust ');
  const created = await withStepUp(api, setupAdmin, () =>
    api.post('/api/organisations', { data: { name, ods_code: uniqueOdsCode() } }),
  );
  expect(created.status(), await created.text()).toBe(201);
  const organisation = (await created.json()) as Organisation;
  const second = await withStepUp(api, setupAdmin, () =>
    api.post(`/api/organisations/${organisation.organisation_id}/sites`, {
      data: { name: uniqueWord('North ') },
    }),
  );
  expect(second.status(), await second.text()).toBe(201);
  const sites = (await (
    await api.get(`/api/organisations/${organisation.organisation_id}/sites`)
  ).json()) as Site[];
  const other = (await second.json()) as Site;
  const first = sites.find((site) => site.site_id !== other.site_id)!;
  return { organisation, first, second: other };
}

/** Signs an admin in on a page of its own browser context (the test's page stays signed in as another). */
export async function signInElsewhere(browser: Browser, admin: TestAdmin): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInOnPage(page, admin);
  return page;
}
