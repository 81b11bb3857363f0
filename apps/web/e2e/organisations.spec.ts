import { messages } from '@pathway/contract';
import * as OTPAuth from 'otpauth';
import { expect, expectAccessible, test, uniqueUserName, type TestAdmin } from './fixtures';
import { addOrganisationWithTwoSites, signInElsewhere, uniqueOdsCode } from './organisations';
import { participantGrid, participantRow, searchParticipants } from './participant-grid';
import { addParticipant, uniqueWord } from './register-data';

const om = messages.organisation;

test.describe('organisations and sites', () => {
  test('a system administrator adds an organisation, its sites and its first full-access admin, who sees an empty programme', async ({
    page,
    browser,
    signInAs,
  }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await signInAs('full access', { system_administrator: true });
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Organisations' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Organisations' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Organisations' });
    await expect(table.getByRole('row')).not.toHaveCount(1);
    await expectAccessible(page, 'organisations');

    // The form refuses what the server would, with the contract's messages.
    await page.getByRole('button', { name: 'Add organisation' }).click();
    const add = page.getByRole('dialog', { name: 'Add organisation' });
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByText(om.nameEmpty)).toBeVisible();
    await expect(add.getByText(om.odsCodeEmpty)).toBeVisible();
    await add.getByLabel(/^ODS code/).fill('R!');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByText(om.odsCodeInvalid)).toBeVisible();
    await expectAccessible(page, 'add organisation modal with errors');

    const name = uniqueWord('Trust ');
    const odsCode = uniqueOdsCode();
    await add.getByLabel(/^Organisation name/).fill(name);
    await add.getByLabel(/^ODS code/).fill(odsCode.toLowerCase());
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add).toHaveCount(0);
    const row = table.getByRole('row').filter({ hasText: name });
    // Kept in capitals; it starts with one site of its own name, and no participant.
    await expect(row.getByRole('cell')).toHaveText([name, odsCode, '1', '0', /\d{2}\/\d{2}\/\d{4}/, '']);

    // A duplicate name is the server's refusal, shown in the dialog.
    await page.getByRole('button', { name: 'Add organisation' }).click();
    await add.getByLabel(/^Organisation name/).fill(name);
    await add.getByLabel(/^ODS code/).fill(uniqueOdsCode());
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByRole('alert')).toContainText(om.nameTaken);
    await expectAccessible(page, 'add organisation modal with a warning');
    await add.getByRole('button', { name: 'Cancel' }).click();

    // Its sites: the first, then one more.
    await row.getByRole('button', { name: `Sites of ${name}` }).click();
    const sites = page.getByRole('table', { name: `Sites of ${name}` });
    await expect(sites.getByRole('row').filter({ hasText: name })).toBeVisible();
    await page.getByRole('button', { name: 'Add site' }).click();
    const addSite = page.getByRole('dialog', { name: 'Add site' });
    await expectAccessible(page, 'add site modal');
    const siteName = uniqueWord('North ');
    await addSite.getByLabel(/^Site name/).fill(siteName);
    await addSite.getByRole('button', { name: 'Save' }).click();
    await expect(addSite).toHaveCount(0);
    await expect(sites.getByRole('row').filter({ hasText: siteName })).toContainText('—');
    await expect(row.getByRole('cell').nth(2)).toHaveText('2');

    // Renamed.
    await sites.getByRole('button', { name: `Edit ${siteName}` }).click();
    const editSite = page.getByRole('dialog', { name: 'Edit site' });
    await editSite.getByLabel(/^Site name/).fill(`${siteName} Clinic`);
    await editSite.getByRole('button', { name: 'Save' }).click();
    await expect(sites.getByRole('row').filter({ hasText: `${siteName} Clinic` })).toBeVisible();
    const renamed = `${name} NHS`;
    await row.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit organisation' });
    await expect(edit.getByLabel(/^ODS code/)).toHaveValue(odsCode);
    await edit.getByLabel(/^Organisation name/).fill(renamed);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toHaveCount(0);
    await expect(table.getByRole('row').filter({ hasText: renamed })).toBeVisible();
    await expectAccessible(page, 'organisations with sites');

    // Its first admin, full access at every site, added on the Admin Users page.
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Admin Users' })
      .click();
    await page.getByRole('button', { name: 'Add admin user' }).click();
    const addAdminDialog = page.getByRole('dialog', { name: 'Add admin user' });
    await addAdminDialog.getByRole('combobox', { name: /^Organisation/ }).click();
    await page.getByRole('option', { name: renamed }).click();
    await addAdminDialog.getByRole('combobox', { name: /Access level/ }).click();
    await page.getByRole('option', { name: 'Full access' }).click();
    await expect(addAdminDialog.getByRole('combobox', { name: /^Sites/ })).toHaveText('Every site');
    await expect(addAdminDialog.getByLabel('System administrator')).not.toBeChecked();
    await expectAccessible(page, 'add admin user modal with organisations');
    const userName = uniqueUserName('e2e.first');
    const password = 'a long enough password';
    await addAdminDialog.getByLabel(/^Username/).fill(userName);
    await addAdminDialog.getByLabel(/^Password/).fill(password);
    await addAdminDialog.getByRole('button', { name: 'Save' }).click();
    await expect(addAdminDialog.getByRole('img', { name: /QR code/ })).toBeVisible();
    const key = (await addAdminDialog.locator('code').innerText()).replace(/\s+/g, '');
    await addAdminDialog.getByRole('button', { name: 'Close' }).click();
    // The table says whom each admin works for, and whose participants they see.
    const adminsTable = page.getByRole('table', { name: 'Admin users' });
    await expect(adminsTable.getByRole('columnheader', { name: 'Organisation' })).toBeVisible();
    const added = adminsTable.getByRole('row').filter({ hasText: userName });
    await expect(added.getByRole('cell', { name: renamed, exact: true })).toBeVisible();
    await expect(added.getByRole('cell', { name: 'Every site', exact: true })).toBeVisible();
    await expectAccessible(page, 'admin users of several organisations');

    const first: TestAdmin = {
      user_name: userName,
      password,
      role: 'full access',
      first_name: '',
      last_name: '',
      totp: new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key) }),
    };
    const theirs = await signInElsewhere(browser, first);
    try {
      const menu = theirs.getByRole('navigation', { name: 'Main menu' });
      await expect(menu.getByRole('link', { name: 'Organisations' })).toHaveCount(0);
      await menu.getByRole('link', { name: 'Participants' }).click();
      await expect(participantGrid(theirs).getByText('No participants')).toBeVisible();
      await theirs.goto('/authoriseddevices');
      await expect(theirs.getByText(/^No devices yet/)).toBeVisible();
      await expectAccessible(theirs, "the new organisation's empty devices");
    } finally {
      await theirs.context().close();
    }
  });

  test('a site-limited admin sees only their site, and a participant transferred there', async ({
    page,
    browser,
    adminApi,
    setupAdmin,
    createAdmin,
    signIn,
  }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    const { organisation, first, second } = await addOrganisationWithTwoSites(adminApi, setupAdmin);
    const lead = await createAdmin('full access', { organisation_id: organisation.organisation_id });
    const limited = await createAdmin('full access', {
      organisation_id: organisation.organisation_id,
      site_ids: [second.site_id],
    });

    // The programme lead adds one participant at each site, through the API of their own session.
    await signIn(lead);
    const { participant: atFirst } = await addParticipant(page.request, { site_id: first.site_id });
    const { participant: atSecond } = await addParticipant(page.request, { site_id: second.site_id });

    const theirs = await signInElsewhere(browser, limited);
    try {
      await theirs.goto('/participants');
      await searchParticipants(theirs, atSecond.last_name);
      await expect(participantRow(theirs, atSecond.participant_id)).toBeVisible();
      await searchParticipants(theirs, atFirst.last_name);
      await expect(participantGrid(theirs).getByText('No participants')).toBeVisible();
      await expect(participantRow(theirs, atFirst.participant_id)).toHaveCount(0);
      // Someone else's record is not found, not forbidden: its existence does not leak.
      const other = await theirs.request.get(`/api/participant/${atFirst.participant_id}`);
      expect(other.status()).toBe(404);

      // The lead's Admin Users table names the sites an admin is limited to, and no organisation
      // (theirs is the only one they see).
      await page.goto('/adminusers');
      const adminsTable = page.getByRole('table', { name: 'Admin users' });
      const limitedRow = adminsTable.getByRole('row').filter({ hasText: limited.user_name });
      await expect(limitedRow.getByRole('cell', { name: second.name, exact: true })).toBeVisible();
      await expect(adminsTable.getByRole('columnheader', { name: 'Organisation' })).toHaveCount(0);
      await expect(
        adminsTable
          .getByRole('row')
          .filter({ hasText: lead.user_name })
          .getByRole('cell', { name: 'Every site' }),
      ).toBeVisible();

      // The lead sees both sites: the add form asks which one, and requires it.
      await page.goto('/addparticipant');
      const form = page.getByRole('form', { name: 'Add participant' });
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(form.getByText(om.siteRequired)).toBeVisible();
      await form.getByRole('combobox', { name: /^Site/ }).click();
      await expect(page.getByRole('option', { name: second.name })).toBeVisible();
      await page.keyboard.press('Escape');
      await expectAccessible(page, 'add participant with a choice of site');

      // The site in the record, and a transfer of the first participant.
      await page.goto('/participants');
      await searchParticipants(page, atFirst.last_name);
      const row = participantRow(page, atFirst.participant_id);
      await expect(row).toBeVisible();
      await row
        .getByRole('menuitem', { name: `View details of participant ${atFirst.participant_id}` })
        .click();
      const details = page.getByRole('dialog', { name: `Participant ${atFirst.participant_id}` });
      await expect(details.getByRole('definition').filter({ hasText: first.name })).toBeVisible();
      await details.getByRole('button', { name: 'Transfer' }).click();
      const transfer = page.getByRole('dialog', { name: /^Transfer participant/ });
      await expect(transfer).toContainText(first.name);
      await transfer.getByRole('button', { name: 'Transfer' }).click();
      await expect(transfer.getByText(om.siteRequired)).toBeVisible();
      await expectAccessible(page, 'transfer participant modal');
      await transfer.getByRole('combobox', { name: /^New site/ }).click();
      await page.getByRole('option', { name: second.name }).click();
      await transfer.getByRole('button', { name: 'Transfer' }).click();
      await expect(transfer).toHaveCount(0);
      await expect(details.getByRole('alert')).toContainText(om.transferred(second.name));
      await expect(details.getByRole('definition').filter({ hasText: second.name })).toBeVisible();
      await expectAccessible(page, 'participant details after a transfer');

      // Now at the limited admin's site: they see them.
      await theirs.goto('/participants');
      await searchParticipants(theirs, atFirst.last_name);
      await expect(participantRow(theirs, atFirst.participant_id)).toBeVisible();
    } finally {
      await theirs.context().close();
    }
  });
});
