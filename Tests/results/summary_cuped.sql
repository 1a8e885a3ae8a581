-- The --summary CSV of `abconsole results --cuped` (SPEC §8, §12) from exposure and conversion tables, in
-- standard SQL: the columns of summary.sql plus covariate_sum, covariate_sum_squares and cross_sum, each
-- subject's covariate being the same metric in the lookback before its first exposure.
-- Tables: exposures(timestamp, experiment, variant, subject), conversions(timestamp, subject, metric, value),
--         variants(name) = the experiment's variants, whitelist(subject) = its whitelisted subjects.
-- Fill in the parameters: the experiment key, the window (RFC 3339, inclusive; `abconsole results EXP --json`
-- prints the default one), the conversion window in hours (NULL for none) and the lookback in days (14 by default).
WITH params AS (
    SELECT '{experiment}' AS experiment,
           CAST('{window_from}' AS TIMESTAMP WITH TIME ZONE) AS window_from,
           CAST('{window_to}' AS TIMESTAMP WITH TIME ZONE) AS window_to,
           CAST({conversion_window_hours} AS DOUBLE PRECISION) AS conversion_window_hours,
           CAST({lookback_days} AS DOUBLE PRECISION) AS lookback_days
),
-- Exposures of this experiment inside the window, to a variant it has.
in_window AS (
    SELECT e.subject, e.variant, e.timestamp
    FROM exposures e CROSS JOIN params p
    WHERE e.experiment = p.experiment
      AND e.timestamp >= p.window_from AND e.timestamp <= p.window_to
      AND e.variant IN (SELECT name FROM variants)
),
-- One row per subject seen in exactly one variant, with its first exposure.
subjects AS (
    SELECT subject, MIN(variant) AS variant, MIN(timestamp) AS first_exposure
    FROM in_window
    GROUP BY subject
    HAVING COUNT(DISTINCT variant) = 1
),
-- Whitelisted subjects were not bucketed: set aside.
analysed AS (
    SELECT s.subject, s.variant, s.first_exposure
    FROM subjects s
    WHERE s.subject NOT IN (SELECT subject FROM whitelist)
),
-- A metric is a mean when any of its rows carries a value, else a proportion.
metric_types AS (
    SELECT metric, CASE WHEN COUNT(value) > 0 THEN 'mean' ELSE 'proportion' END AS type
    FROM conversions
    GROUP BY metric
),
-- Each subject's counted conversions per metric: after its first exposure, inside the window
-- (and the conversion window); a missing value counts 1.
per_subject AS (
    SELECT a.subject, c.metric, SUM(COALESCE(c.value, 1)) AS value
    FROM analysed a
    JOIN conversions c ON c.subject = a.subject
    CROSS JOIN params p
    WHERE c.timestamp >= a.first_exposure AND c.timestamp <= p.window_to
      AND (p.conversion_window_hours IS NULL
           OR c.timestamp <= a.first_exposure + p.conversion_window_hours * INTERVAL '1' HOUR)
    GROUP BY a.subject, c.metric
),
-- Each subject's covariate per metric: its conversions in the lookback before its first exposure (rows before
-- the window's start count here, since they precede exposure).
pre_subject AS (
    SELECT a.subject, c.metric, SUM(COALESCE(c.value, 1)) AS value
    FROM analysed a
    JOIN conversions c ON c.subject = a.subject
    CROSS JOIN params p
    WHERE c.timestamp < a.first_exposure
      AND c.timestamp >= a.first_exposure - p.lookback_days * INTERVAL '1' DAY
    GROUP BY a.subject, c.metric
),
-- Every analysed subject for every metric with a counted conversion (0 when it has none), Y and X as
-- results sees them: 0/1 for a proportion, the sum of values for a mean.
grid AS (
    SELECT m.metric, t.type, a.variant,
           CASE WHEN t.type = 'proportion' THEN CASE WHEN COALESCE(ps.value, 0) > 0 THEN 1 ELSE 0 END ELSE COALESCE(ps.value, 0) END AS y,
           CASE WHEN t.type = 'proportion' THEN CASE WHEN COALESCE(pre.value, 0) > 0 THEN 1 ELSE 0 END ELSE COALESCE(pre.value, 0) END AS x
    FROM (SELECT DISTINCT metric FROM per_subject) m
    JOIN metric_types t ON t.metric = m.metric
    CROSS JOIN analysed a
    LEFT JOIN per_subject ps ON ps.subject = a.subject AND ps.metric = m.metric
    LEFT JOIN pre_subject pre ON pre.subject = a.subject AND pre.metric = m.metric
)
SELECT metric, type, variant,
       COUNT(*) AS subjects,
       SUM(y) AS sum,
       SUM(y * y) AS sum_squares,
       SUM(x) AS covariate_sum,
       SUM(x * x) AS covariate_sum_squares,
       SUM(x * y) AS cross_sum
FROM grid
GROUP BY metric, type, variant
ORDER BY metric, variant
