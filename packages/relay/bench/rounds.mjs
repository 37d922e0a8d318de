// Repeated rounds of one bench figure: the machine's speed drifts over minutes by more than the
// effects we measure (a single run's ratio reads as ±0.1), so each relay figure is timed in
// several rounds spread over the run, interleaved with the others, and judged by its median.

/**
 * `runs`: one entry per round; `ratioOf(run)` its ratio to the baseline of that round.
 * Returns the median round (for an even count, the lower of the middle two: a real round, whose
 * other figures print beside the ratio, and never the flattering choice), the ratios in round
 * order, and their range (NaN ratios included as they are).
 */
export function medianRound(runs, ratioOf) {
  if (runs.length === 0) throw new Error("medianRound: no rounds");
  const ratios = runs.map(ratioOf);
  // A round without a ratio (NaN: no baseline, or a failed run) ranks lowest: it can only pull the median down.
  const rank = (k) => (Number.isNaN(ratios[k]) ? -Infinity : ratios[k]);
  const order = ratios.map((_, k) => k).sort((a, b) => rank(a) - rank(b) || a - b);
  const middle = order[Math.floor((order.length - 1) / 2)];
  return {
    run: runs[middle],
    ratio: ratios[middle],
    ratios,
    min: ratios[order[0]],
    max: ratios[order[order.length - 1]],
  };
}

/**
 * Whether rounds meet `target` (a ratio, higher is better): by their median, or, with `everyRound`
 * (issue 38's retention sweep figure), by the lowest round; a round without a ratio meets nothing.
 */
export function meetsTarget(summary, target, { everyRound = false } = {}) {
  return (everyRound ? summary.min : summary.ratio) >= target;
}

/** The closing table's short form: "0.66 (0.72 / 0.57 / 0.66)"; one round prints as "0.66". */
export function ratiosBrief(summary) {
  const { ratio, ratios } = summary;
  return `${ratio.toFixed(2)}${ratios.length > 1 ? ` (${ratios.map((r) => r.toFixed(2)).join(" / ")})` : ""}`;
}

/** "ratio 0.66, median of 3 rounds (0.61 / 0.66 / 0.72)"; one round prints as "ratio 0.66". */
export function roundsText(summary, digits = 2) {
  const { ratio, ratios } = summary;
  if (ratios.length === 1) return `ratio ${ratio.toFixed(digits)}`;
  const kind = ratios.length % 2 === 0 ? "lower median" : "median";
  return `ratio ${ratio.toFixed(digits)}, ${kind} of ${ratios.length} rounds (${ratios.map((r) => r.toFixed(digits)).join(" / ")})`;
}
