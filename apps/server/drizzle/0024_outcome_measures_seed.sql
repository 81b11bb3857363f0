-- Results are append-only: a correction is a new row that amends the first, so nothing may
-- rewrite one (a participant's destruction deletes them, which stays possible).
create or replace function assessment_results_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'assessment_results is append-only: a correction is a new row that amends the result'
    using errcode = 'restrict_violation';
end $$;
--> statement-breakpoint
create trigger assessment_results_append_only before update on assessment_results
  for each row execute function assessment_results_append_only();
--> statement-breakpoint
-- The measures a peripheral arterial disease programme takes, shipped with the product; each MCID
-- and its source are listed in docs/outcomes.md. Licensed instruments are added by an operator.
insert into outcome_measures (code, name, kind, unit, min, max, decimals, higher_is_better, mcid, mcid_source,
  instructions, licence, loinc, scoring, items)
values
  ('6MWD', 'Six-minute walk distance', 'numeric', 'm', 10, 1000, 0, true, 20,
   'Perera S, Mody SH, Woodman RC, Studenski SA. Meaningful change and responsiveness in common physical performance measures in older adults. J Am Geriatr Soc 2006;54(5):743-749: a small meaningful change is about 20 m (a substantial one about 50 m).',
   'Walk as far as possible in 6 minutes up and down a flat, straight 30 m corridor, turning at each end; rests are allowed while the clock runs (American Thoracic Society guidelines for the six-minute walk test, 2002). Record the distance in metres.',
   null, '64098-7', null, null),
  ('PFWD', 'Pain-free walking distance', 'numeric', 'm', 0, 3000, 0, true, null,
   'No minimal clinically important difference of pain-free walking distance in metres is shipped: none was found that Pathway could cite. A programme that uses one adds this measure again under a new code with its MCID and source.',
   'The distance walked before claudication pain begins, in metres, on the programme''s usual walking test (a treadmill protocol or a corridor walk). Use the same protocol at every assessment of a participant.',
   null, null, null, null),
  ('MWD', 'Maximum walking distance', 'numeric', 'm', 10, 5000, 0, true, 305,
   'van den Houten MML, Gommans LNM, van der Wees PJ, Teijink JAW. Minimally important difference of the absolute and functional claudication distance in patients with intermittent claudication. Eur J Vasc Endovasc Surg 2016: 305 m for improvement (147 m for deterioration) of the treadmill-measured absolute claudication distance after supervised exercise therapy.',
   'The distance walked until claudication pain stops the participant (absolute claudication distance), in metres, on the programme''s usual walking test. Use the same protocol at every assessment of a participant.',
   null, null, null, null),
  ('GAD-7', 'Generalised Anxiety Disorder 7 (GAD-7)', 'questionnaire', '{score}', 0, 21, 0, false, 4,
   'Toussaint A, Hüsing P, Gumz A, et al. Sensitivity to change and minimal clinically important difference of the 7-item Generalized Anxiety Disorder Questionnaire (GAD-7). J Affect Disord 2020;265:395-401: 4 points.',
   'Over the last 2 weeks, how often have you been bothered by the following problems? The participant answers each item; the score is the sum (0 to 21).',
   'GAD-7: Spitzer RL, Kroenke K, Williams JBW, Löwe B. A brief measure for assessing generalized anxiety disorder: the GAD-7. Arch Intern Med 2006;166:1092-1097. Developed by Drs Robert L. Spitzer, Janet B.W. Williams, Kurt Kroenke and colleagues, with an educational grant from Pfizer Inc. No permission is required to reproduce, translate, display or distribute.',
   '69737-5', 'sum',
   '[{"item_id": "1", "text": "Feeling nervous, anxious, or on edge", "answers": [{"value": 0, "label": "Not at all"}, {"value": 1, "label": "Several days"}, {"value": 2, "label": "More than half the days"}, {"value": 3, "label": "Nearly every day"}]},
     {"item_id": "2", "text": "Not being able to stop or control worrying", "answers": [{"value": 0, "label": "Not at all"}, {"value": 1, "label": "Several days"}, {"value": 2, "label": "More than half the days"}, {"value": 3, "label": "Nearly every day"}]},
     {"item_id": "3", "text": "Worrying too much about different things", "answers": [{"value": 0, "label": "Not at all"}, {"value": 1, "label": "Several days"}, {"value": 2, "label": "More than half the days"}, {"value": 3, "label": "Nearly every day"}]},
     {"item_id": "4", "text": "Trouble relaxing", "answers": [{"value": 0, "label": "Not at all"}, {"value": 1, "label": "Several days"}, {"value": 2, "label": "More than half the days"}, {"value": 3, "label": "Nearly every day"}]},
     {"item_id": "5", "text": "Being so restless that it is hard to sit still", "answers": [{"value": 0, "label": "Not at all"}, {"value": 1, "label": "Several days"}, {"value": 2, "label": "More than half the days"}, {"value": 3, "label": "Nearly every day"}]},
     {"item_id": "6", "text": "Becoming easily annoyed or irritable", "answers": [{"value": 0, "label": "Not at all"}, {"value": 1, "label": "Several days"}, {"value": 2, "label": "More than half the days"}, {"value": 3, "label": "Nearly every day"}]},
     {"item_id": "7", "text": "Feeling afraid, as if something awful might happen", "answers": [{"value": 0, "label": "Not at all"}, {"value": 1, "label": "Several days"}, {"value": 2, "label": "More than half the days"}, {"value": 3, "label": "Nearly every day"}]}]'::jsonb);
