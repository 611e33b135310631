CREATE INDEX attempts_kept_by_item ON attempts (item_id, started) INCLUDE (game, passed)
    WHERE abandoned = 0;
CREATE INDEX attempts_kept_by_trainee ON attempts (trainee_id, started) INCLUDE (critical, passed)
    WHERE abandoned = 0;
CREATE INDEX attempt_skills_window ON attempt_skills (trainee_id, skill, started DESC, attempt_id DESC);
DROP INDEX attempt_skills_recent
