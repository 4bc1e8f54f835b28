/* The rules behind every metric, in words, so each report states how its
 * numbers were extracted (a number without its extraction rule cannot be
 * compared with another tool's). The
 * main-thread rule of each trace is in that trace's own record. */
#include "report/tc_metrics_report.h"

static const tc_metrics_rule rules[] = {
    {"main_thread",
     "thread_name CrRendererMain of the renderer(s) hosting the page's main frame. With "
     "TracingStartedInBrowser (DevTools and CDP recordings), Lighthouse's TraceProcessor "
     "rule: its frame with no parent, else TracingStartedInPage, its renderers from "
     "FrameCommittedInBrowser processId. Otherwise (startup traces) the outermost main "
     "frame that committed a web document (http, https or file, never chrome://, "
     "chrome-untrusted://, devtools://, chrome-extension:// or about:), from CommitLoad, "
     "else FrameCommittedInBrowser, else navigationStart with its documentLoaderURL; the "
     "earliest such commit (then lowest pid, then frame id) when several tabs or "
     "navigations qualify; its renderers = every process that committed that frame. "
     "main_rule names the evidence that decided"},
    {"window",
     "from the job's start mark to its end mark (user-timing marks of the main renderer) "
     "when named; else from the page's own commit (startup traces, window_rule "
     "page_commit, so the browser's start-up is not the page's) or the first event of "
     "the main thread(s) (main_thread_span), to their last event, less a clock jump at "
     "either edge; an empty or inverted window makes every metric n/a"},
    {"top_level_tasks",
     "complete (X) or begin/end (B/E, paired per thread by name) events named RunTask, "
     "ThreadControllerImpl::RunTask, ThreadControllerImpl::DoWork, "
     "TaskQueueManager::ProcessTaskFromWorkQueue, MessageLoop::RunTask or toplevel on the "
     "main thread(s), not nested in another one (a child may overrun its parent by 1 ms); "
     "a task with no end runs to its thread's last event, counts as busy and is left out "
     "of the long tasks"},
    {"busy",
     "top-level tasks merged as a union, each merged interval charged to the buckets it "
     "covers (bucket_ms from the window start); mean = busy time / valid bucket time; "
     "median, p95, max over valid buckets, the last one only if at least half a bucket "
     "long"},
    {"long_tasks",
     "top-level tasks of at least 50 ms overlapping the window (whole duration); "
     "tbt_ms = sum of max(0, part inside the window - 50 ms); this is an engineering "
     "approximation, not the Long Tasks API"},
    {"lag",
     "time-weighted wait of an input arriving at a uniformly random valid moment of the "
     "window: the rest of the merged busy interval it lands in, 0 when idle; exact "
     "quantiles of that distribution; long_task_share_pct = valid window time inside "
     "long tasks"},
    {"frames",
     "intervals between consecutive DrawFrame instants of the main frame's compositor, "
     "per layer tree (pid and layerTreeId from SetLayerTreeId); an interval counts only "
     "when updates were continuous: the compositor was asking for BeginFrames "
     "(NeedsBeginFrameChanged needsBeginFrame=1) at the first draw and did not stop before "
     "the second; vsyncs jitter by microseconds, so a frame is over budget (dropped) only "
     "when its interval exceeds 1.5 x 1000 / refresh_hz ms, and missed_vsyncs = sum of "
     "round(interval / budget) - 1; the raw intervals keep their mean, p50, p95, max and "
     "counts by vsyncs (by_vsyncs, the last bin 8 or more)"},
    {"heap",
     "UpdateCounters args.data.jsHeapSizeUsed of the main renderer(s), forward-filled: "
     "start = value at the window start, end = last sample in the window, series = value "
     "at each bucket's end"},
    {"user_timing",
     "blink.user_timing async begin/end pairs (b/e, legacy S/F) of the main renderer(s) "
     "paired on pid, name and id, beginning in the window; user_timing_measures counts "
     "every such measure (a name measured four times is 4), user_timing_measure_names its "
     "distinct names; per name count, mean, median, p95, max; unclosed = begins without end "
     "and '<x>:start' marks without '<x>:end'"},
    {"layout",
     "Layout slices of the main thread(s) starting in the window; forced = those starting "
     "inside a FunctionCall, EvaluateScript or v8.evaluateModule slice of the same thread "
     "(script read layout while it was dirty), with their summed duration; n/a when the "
     "main thread has no Layout at all"},
    {"renderers",
     "every renderer process (its CrRendererMain) is reported on its own, never merged "
     "into the page's main thread: role page (hosts the main frame), iframe (committed a "
     "frame of the page's tree other than the main frame: its parent chain reaches the main "
     "frame, or a main renderer named it as a subframe), browser_ui (committed only "
     "chrome://, chrome-untrusted://, devtools://, chrome-extension:// or chrome-search:// "
     "outermost main frames) or other; each with its URL and, over the page's window by the "
     "page's rules, its top-level tasks, long tasks and TBT; the iframes group sums the "
     "iframe renderers"},
    {"clamps",
     "memory and output follow the input's size, never its values: a task longer than the "
     "trace's span (last minus first timestamp of any event, at least 60 s) is clipped to "
     "that length and counted in tasks_clipped; the window ends at most that span after the "
     "trace's last timestamp; when the window would hold more buckets than 4096 plus twice "
     "the trace's events, bucket_ms is raised to a multiple of the job's (bucket_raised)"},
    {"validity",
     "a sample (bucket, task, frame interval, measure) meeting a stretch where the page "
     "was hidden (WidgetBase::WasHidden/RenderWidget::OnWasHidden to WasShown), the "
     "system suspended (PowerMonitor::NotifySuspend to NotifyResume) or the clock jumped "
     "(over 60 s with no main-thread task) is discarded and counted by reason, as is one "
     "whose end precedes its start (clock going back); heap samples are kept"},
    {"na",
     "a metric that could not be measured is empty with its reason, never 0: in the "
     "column's own *_na when it has one, else its group's *_na (JSON: the group's na, "
     "else its field_na); a truncated trace is n/a throughout; parse errors are flagged, "
     "not n/a; every site of the manifest has a row, a site without a trace n/a with "
     "no_trace and the crawl's reason as its error"},
    {"percentiles",
     "nearest-rank: the value of rank ceil(q*n) in ascending order; a percentile q needs "
     "at least 1/(1-q) samples (2 for the median, 20 for p95, 100 for p99) and a mean or "
     "maximum one, else it is n/a with too_few_samples; durations in ms, timestamps in the "
     "trace's microseconds"},
    {"sites",
     "a site's value is the nearest-rank median of its traces that measured the metric "
     "(the trace itself when it has one)"},
    {"corpus",
     "one page view per site (its median trace) per metric, in mergeable log-bucket "
     "histograms with 0.5% relative error; metrics that can be negative are left out"},
    {NULL, NULL},
};

const tc_metrics_rule *tc__metrics_rules(void) {
  return rules;
}
