-- Organisations and sites kept apart by the database itself: the row-level security policies
-- of every table that holds an organisation's data (docs/security.md, "Organisations, sites and
-- who sees what"). They read the scope of the transaction (organisation-scope.sql). The scope `instance` is
-- work that is every organisation's, named in the code (the daily check, push delivery,
-- retention, sign-in); a system administrator manages organisations, sites, their admins and
-- shared video sets and reads no participant record. The tables' owner is not subject to them:
-- the trigger functions that keep derived data run as the owner and take each row's site from
-- the rows themselves. Each of these tables has row level security enabled by its migration.

create policy organisations_read on organisations for select using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or organisation_id = (select pathway_organisation()));

create policy organisations_insert on organisations for insert with check (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator()));

create policy organisations_update on organisations for update using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator()));

create policy sites_read on sites for select using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or organisation_id = (select pathway_organisation()));

create policy sites_insert on sites for insert with check (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator()));

create policy sites_update on sites for update using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator()));

create policy admin_users_scope on admin_users using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or organisation_id = (select pathway_organisation()));

create policy sessions_scope on sessions using (
  (select pathway_scope()) = 'instance'
  or exists (select 1 from admin_users a where a.admin_user_id = sessions.admin_user_id));

-- A sign-in lock is seen by those who manage its admin: of every site, or of the sites the admin
-- is limited to.
create policy login_throttle_scope on login_throttle using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or exists (select 1 from admin_users a where lower(a.user_name) = login_throttle.user_name
    and ((select pathway_every_site())
      or (cardinality(a.site_ids) > 0 and a.site_ids <@ (select pathway_sites())::integer[]))));

create policy authorized_devices_scope on authorized_devices using (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation())
    and (site_id is null or site_id = any ((select pathway_sites())::integer[]))));

create policy fitness_video_sets_read on fitness_video_sets for select using (
  (select pathway_scope()) = 'instance' or shared or organisation_id = (select pathway_organisation()));

create policy fitness_video_sets_insert on fitness_video_sets for insert with check (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation()) and (not shared or (select pathway_system_administrator()))));

create policy fitness_video_sets_update on fitness_video_sets for update using (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation()) and not shared)
  or (shared and (select pathway_system_administrator())))
  with check (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation()) and not shared)
  or (select pathway_system_administrator()));

create policy fitness_video_sets_delete on fitness_video_sets for delete using (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation()) and not shared)
  or (shared and (select pathway_system_administrator())));

create policy videos_read on videos for select using (
  (select pathway_scope()) = 'instance'
  or exists (select 1 from fitness_video_sets s where s.fitness_video_set_id = videos.fitness_video_set_id));

create policy videos_change on videos for all using (
  (select pathway_scope()) = 'instance'
  or exists (select 1 from fitness_video_sets s where s.fitness_video_set_id = videos.fitness_video_set_id
    and (not s.shared or (select pathway_system_administrator()))));

-- A video set's assessment schedule is seen and changed with the set.
create policy assessment_schedules_read on assessment_schedules for select using (
  (select pathway_scope()) = 'instance'
  or exists (select 1 from fitness_video_sets s where s.fitness_video_set_id = assessment_schedules.fitness_video_set_id));

create policy assessment_schedules_change on assessment_schedules for all using (
  (select pathway_scope()) = 'instance'
  or exists (select 1 from fitness_video_sets s where s.fitness_video_set_id = assessment_schedules.fitness_video_set_id
    and (not s.shared or (select pathway_system_administrator()))));

create policy video_uploads_scope on video_uploads using (
  (select pathway_scope()) = 'instance' or organisation_id = (select pathway_organisation()));

-- A participant is their site's: added, read, changed and transferred among the sites the scope
-- sees.

create policy participants_scope on participants using (
  (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));

create policy participant_followup_scope on participant_followup using (
  (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));

create policy report_cohort_scope on report_cohort using (
  (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));

-- Everything a participant has is seen with them: the rows of a participant the scope sees.

create policy participant_adherence_scope on participant_adherence using (
      (select pathway_scope()) = 'instance'
      or exists (select 1 from participants p where p.participant_id = participant_adherence.participant_id));

create policy fitness_participation_progress_scope on fitness_participation_progress using (
      (select pathway_scope()) = 'instance'
      or exists (select 1 from participants p where p.participant_id = fitness_participation_progress.participant_id));

create policy seen_videos_scope on seen_videos using (
      (select pathway_scope()) = 'instance'
      or exists (select 1 from participants p where p.participant_id = seen_videos.participant_id));

create policy seen_weeks_scope on seen_weeks using (
      (select pathway_scope()) = 'instance'
      or exists (select 1 from participants p where p.participant_id = seen_weeks.participant_id));

create policy device_tokens_scope on device_tokens using (
      (select pathway_scope()) = 'instance'
      or exists (select 1 from participants p where p.participant_id = device_tokens.participant_id));

create policy device_assignments_scope on device_assignments using (
      (select pathway_scope()) = 'instance'
      or exists (select 1 from participants p where p.participant_id = device_assignments.participant_id));

create policy participant_contacts_scope on participant_contacts using (
      (select pathway_scope()) = 'instance'
      or exists (select 1 from participants p where p.participant_id = participant_contacts.participant_id));

create policy push_outbox_scope on push_outbox using (
      (select pathway_scope()) = 'instance'
      or exists (select 1 from participants p where p.participant_id = push_outbox.participant_id));

create policy assessment_results_scope on assessment_results using (
      (select pathway_scope()) = 'instance'
      or exists (select 1 from participants p where p.participant_id = assessment_results.participant_id));

-- A tablet's sign-ins are its organisation's, and with a participant, seen with them.

create policy device_sign_ins_scope on device_sign_ins using (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation())
    and (participant_id is null or exists (select 1 from participants p where p.participant_id = device_sign_ins.participant_id))));

-- The audit trail is the organisation's, read by its admins of every site; the instance's own
-- events (no organisation: organisations and sites managed, a sign-in under an unknown name) by
-- system administrators. Anyone in the organisation writes to it, a system administrator to any
-- (their changes to another organisation's admins are that organisation's record).

create policy audit_events_read on audit_events for select using (
  (select pathway_scope()) = 'instance'
  or (organisation_id = (select pathway_organisation()) and (select pathway_every_site()))
  or (organisation_id is null and (select pathway_system_administrator())));

create policy audit_events_insert on audit_events for insert with check (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or organisation_id = (select pathway_organisation()));

create policy audit_events_delete on audit_events for delete using ((select pathway_scope()) = 'instance');

-- Counts by site are read by the site's staff; they are written by the triggers above (as the
-- owner), by the daily jobs and by the writes that keep them (a view, a transfer), within the
-- organisation.

create policy participant_tally_read on participant_tally for select using (
      (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));

create policy participant_tally_insert on participant_tally for insert with check (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy participant_tally_update on participant_tally for update using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy participant_tally_delete on participant_tally for delete using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy followup_tally_read on followup_tally for select using (
      (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));

create policy followup_tally_insert on followup_tally for insert with check (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy followup_tally_update on followup_tally for update using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy followup_tally_delete on followup_tally for delete using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy daily_views_read on daily_views for select using (
      (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));

create policy daily_views_insert on daily_views for insert with check (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy daily_views_update on daily_views for update using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy daily_views_delete on daily_views for delete using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy video_day_views_read on video_day_views for select using (
      (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));

create policy video_day_views_insert on video_day_views for insert with check (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy video_day_views_update on video_day_views for update using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy video_day_views_delete on video_day_views for delete using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy adherence_history_read on adherence_history for select using (
      (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));

create policy adherence_history_insert on adherence_history for insert with check (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy adherence_history_update on adherence_history for update using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy adherence_history_delete on adherence_history for delete using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy programme_starts_read on programme_starts for select using (
      (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));

create policy programme_starts_insert on programme_starts for insert with check (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy programme_starts_update on programme_starts for update using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy programme_starts_delete on programme_starts for delete using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy programme_week_completions_read on programme_week_completions for select using (
      (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));

create policy programme_week_completions_insert on programme_week_completions for insert with check (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy programme_week_completions_update on programme_week_completions for update using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy programme_week_completions_delete on programme_week_completions for delete using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy programme_week_totals_read on programme_week_totals for select using (
      (select pathway_scope()) = 'instance' or site_id = any ((select pathway_sites())::integer[]));

create policy programme_week_totals_insert on programme_week_totals for insert with check (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy programme_week_totals_update on programme_week_totals for update using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

create policy programme_week_totals_delete on programme_week_totals for delete using (
      (select pathway_scope()) = 'instance'
      or site_id in (select s.site_id from sites s where s.organisation_id = (select pathway_organisation())));

-- An organisation's single sign-on settings and email domains: its own admins and system
-- administrators; sign-in, sign-out and the provider's calls read them in the instance's scope.
create policy sso_configurations_scope on sso_configurations using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or organisation_id = (select pathway_organisation()));

create policy sso_email_domains_scope on sso_email_domains using (
  (select pathway_scope()) = 'instance' or (select pathway_system_administrator())
  or organisation_id = (select pathway_organisation()));
