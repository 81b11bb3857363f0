-- An organisation's single sign-on settings and email domains kept apart by the database, as every
-- other table of an organisation's is (0029_row_level_security): read and changed by the
-- organisation's own admins and by system administrators; sign-in, sign-out and the provider's
-- calls (before anyone is signed in) read them in the instance's scope. The routes' own checks
-- stay; a query that forgot its condition now returns no other organisation's provider.
alter table sso_configurations enable row level security;
--> statement-breakpoint
alter table sso_email_domains enable row level security;
--> statement-breakpoint
create policy sso_configurations_scope on sso_configurations using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or organisation_id = (select pathway_organisation()));
--> statement-breakpoint
create policy sso_email_domains_scope on sso_email_domains using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or organisation_id = (select pathway_organisation()));
