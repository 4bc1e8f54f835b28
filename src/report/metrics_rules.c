/* The rules behind every metric, in words, so each report states how its
 * numbers were extracted (harness 5.3: "state the extraction rule"). The
 * main-thread rule of each trace is in that trace's own record. */
#include "report/metrics_report.h"

static const tc_metrics_rule rules[] = {
    {"main_thread",
     "thread_name CrRendererMain of the renderer(s) hosting the page's main frame; the "
     "main frame and its renderers come from TracingStartedInBrowser (frame with no parent), "
     "else TracingStartedInPage, else navigationStart, then FrameCommittedInBrowser "
     "processId, as Lighthouse's TraceProcessor; each trace records the rule it used"},
    {"window",
     "from the job's start mark to its end mark (user-timing marks of the main renderer) "
     "when named, else from the first to the last event of the main thread(s), less a "
     "clock jump at either edge; an empty or inverted window makes every metric n/a"},
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
     "keyed on pid and layerTreeId from SetLayerTreeId; an interval counts only when "
     "updates were continuous: the compositor was asking for BeginFrames "
     "(NeedsBeginFrameChanged needsBeginFrame=1) at the first draw and did not stop before "
     "the second; over budget = interval > 1000 / refresh_hz ms"},
    {"heap",
     "UpdateCounters args.data.jsHeapSizeUsed of the main renderer(s), forward-filled: "
     "start = value at the window start, end = last sample in the window, series = value "
     "at each bucket's end"},
    {"user_timing",
     "blink.user_timing async begin/end pairs (b/e, legacy S/F) of the main renderer(s) "
     "paired on pid, name and id, beginning in the window; per name count, mean, median, "
     "p95, max; unclosed = begins without end and '<x>:start' marks without '<x>:end'"},
    {"validity",
     "a sample (bucket, task, frame interval, measure) meeting a stretch where the page "
     "was hidden (WidgetBase::WasHidden/RenderWidget::OnWasHidden to WasShown), the "
     "system suspended (PowerMonitor::NotifySuspend to NotifyResume) or the clock jumped "
     "(over 60 s with no main-thread task) is discarded and counted by reason, as is one "
     "whose end precedes its start (clock going back); heap samples are kept"},
    {"na",
     "a metric that could not be measured is empty with its reason in the *_na column, "
     "never 0; a truncated trace is n/a throughout; parse errors are flagged, not n/a"},
    {"percentiles",
     "nearest-rank: the value of rank ceil(q*n) in ascending order; durations in ms, "
     "timestamps in the trace's microseconds"},
    {"sites",
     "a site's value is the nearest-rank median of its traces that measured the metric"},
    {"corpus",
     "one page view per site (its median trace) per metric, in mergeable log-bucket "
     "histograms with 0.5% relative error; metrics that can be negative are left out"},
    {NULL, NULL},
};

const tc_metrics_rule *tc_metrics_rules(void) {
  return rules;
}
