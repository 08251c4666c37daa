-- wrk script for Scripts/service: no request or response hooks (they would slow wrk down on
-- the same cores as the server), only `done`, which prints the run as one JSON line for
-- Load/report.py, with percentiles computed from wrk's own histogram (microseconds).
--
-- Two sets of percentiles. wrk 4 "corrects" its latencies for coordinated omission before it
-- prints them or calls `done`: for every response slower than twice the mean interval `e`
-- between responses on a connection (duration / (requests / connections)), it adds synthetic
-- samples at latency - e, latency - 2e, ... down to e. Here every 504 takes 20 ms, so the
-- corrected distribution grows a staircase at 20 - e, 20 - 2e... (5, 10, 15 ms at N = 3) of
-- responses that never happened, and its percentiles move with the 504 share, not with the
-- variant. `percentiles` undoes the correction exactly (it is a sum along each residue chain
-- modulo e, which can be subtracted back from the top): what each response actually took, as
-- a closed-loop client saw it. `percentiles_wrk` is what wrk prints, for reference.
--
-- WRK_CONNECTIONS (the -c value) must be in the environment to undo the correction.

local percentiles = {
   1, 5, 10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 85, 90, 95, 97.5,
   99, 99.5, 99.75, 99.9, 99.95, 99.99,
}

-- The value at percentile p of a histogram counts[lo..hi] holding total samples.
local function percentile(counts, lo, hi, total, p)
   local rank = math.max(1, math.ceil(p / 100 * total))
   local seen = 0
   for v = lo, hi do
      seen = seen + counts[v]
      if seen >= rank then return v end
   end
   return hi
end

local function percentile_json(counts, lo, hi, total)
   local points = {}
   for _, p in ipairs(percentiles) do
      points[#points + 1] = string.format('"%s": %d', tostring(p), percentile(counts, lo, hi, total, p))
   end
   return "{" .. table.concat(points, ", ") .. "}"
end

function done(summary, latency, requests)
   local lo, hi = latency.min, latency.max
   local counts, raw = {}, {}
   local corrected_total = 0
   for v = lo, hi do counts[v] = 0 end
   -- wrk 4.1: #latency distinct values; latency(i) returns the i-th smallest and its count.
   for i = 1, #latency do
      local value, count = latency(i)
      counts[value] = count
      corrected_total = corrected_total + count
   end

   -- Undo wrk's stats_correct(latency, e): corrected[m] = raw[m] + sum(raw[m + k e], k >= 1)
   -- for m > e, so raw[m] = corrected[m] - above[m + e], walking down from the top, where
   -- above[n] = raw[n] + above[n + e] is the running sum along the chain.
   local connections = tonumber(os.getenv("WRK_CONNECTIONS") or "")
   local per_connection = connections and math.floor(summary.requests / connections) or 0
   local e = per_connection > 0 and math.floor(summary.duration / per_connection) or nil
   local above = {}
   local total, sum, sum_squares = 0, 0, 0
   for m = hi, lo, -1 do
      local chain = e and above[m + e] or 0
      local value = counts[m]
      if e and m > e then value = value - chain end
      raw[m] = value
      if e then above[m] = value + chain end
      total = total + value
      sum = sum + value * m
   end
   local mean = total > 0 and sum / total or 0
   for m = lo, hi do
      sum_squares = sum_squares + raw[m] * (m - mean) ^ 2
   end
   local stdev = total > 1 and math.sqrt(sum_squares / (total - 1)) or 0

   local errors = summary.errors
   io.write(string.format(
      'WRK_JSON {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
      '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, ' ..
      '"latency_us": {"samples": %d, "min": %d, "max": %d, "mean": %.1f, "stdev": %.1f, ' ..
      '"corrected": %s, "correction_interval_us": %d, "percentiles": %s, ' ..
      '"samples_wrk": %d, "mean_wrk": %.1f, "percentiles_wrk": %s}}\n',
      summary.requests, summary.duration, summary.bytes,
      errors.connect, errors.read, errors.write, errors.status, errors.timeout,
      total, lo, hi, mean, stdev, e and "true" or "false", e or 0,
      percentile_json(raw, lo, hi, total),
      corrected_total, latency.mean, percentile_json(counts, lo, hi, corrected_total)))
end
