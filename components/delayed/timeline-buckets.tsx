import { Section } from '@/components/ui/section';
import type { DueTimeline } from '@/lib/layouts/pages';
import { BucketChart } from './bucket-chart';

/** The timeline's three scales, each under its heading: the next hour, day and week. */
export function TimelineBuckets({ timeline }: { timeline: Pick<DueTimeline, 'hour' | 'day' | 'week' | 'later' | 'now'> }) {
  const { now } = timeline;
  return (
    <>
      <Section title="Next hour" description="How many come due in each 5 minutes of the next hour.">
        <BucketChart label="Coming due in the next hour" buckets={timeline.hour} now={now} />
      </Section>
      <Section title="Next day" description="Per hour over the next 24 hours.">
        <BucketChart label="Coming due in the next day" buckets={timeline.day} now={now} />
      </Section>
      <Section title="Next week" description={`Per day over the next 7 days; ${timeline.later} due later than that.`}>
        <BucketChart label="Coming due in the next week" buckets={timeline.week} now={now} />
      </Section>
    </>
  );
}
