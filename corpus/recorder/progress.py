"""The crawl's progress line: traces done of the total, failed, rate and ETA.

The rate counts only traces finished by this run (recorded or failed) over
this run's time, so a continued crawl's kept traces do not inflate it; the
ETA is the traces left at that rate.
"""


def rate_per_hour(finished_now, elapsed_s):
    """Traces per hour, or None when nothing finished yet."""
    if finished_now <= 0 or elapsed_s <= 0:
        return None
    return finished_now * 3600.0 / elapsed_s


def duration_text(seconds):
    minutes = int(round(seconds / 60.0))
    if minutes < 1:
        return "under 1 min"
    if minutes < 60:
        return "%d min" % minutes
    return "%d h %02d min" % divmod(minutes, 60)


def line(done, failed, total, finished_now, elapsed_s):
    """'done 12 of 40 (2 failed), 310 traces/h, ETA 5 min'."""
    head = "done %d of %d (%d failed)" % (done, total, failed)
    rate = rate_per_hour(finished_now, elapsed_s)
    left = total - done
    if left == 0:
        tail = "ETA none, all done"
    elif rate is None:
        tail = "ETA n/a (no trace finished yet in this run)"
    else:
        tail = "ETA %s" % duration_text(left / rate * 3600.0)
    rate_text = "rate n/a (no trace finished yet in this run)" if rate is None \
        else "%.0f traces/h" % rate
    return "%s, %s, %s" % (head, rate_text, tail)
