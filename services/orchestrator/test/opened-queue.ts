import { type Bus, jobQueueName, openJobData } from '@svc/bus';
import type { JobName, MessageCatalog } from '@svc/capabilities';
import { type ConnectionOptions, type Job, Queue } from 'bullmq';

/**
 * A BullMQ Queue of one job type whose `getJob` / `getJobs` show each job's payload opened: the bus
 * seals every payload in Redis (packages/bus/src/sealing.ts), so `job.data` read straight from
 * BullMQ is ciphertext. A payload that does not open (dropped once its job finished) stays as stored.
 * Only the local Job object changes; nothing is written back.
 */
export class OpenedQueue extends Queue {
  constructor(
    private readonly bus: Bus<MessageCatalog>,
    private readonly jobName: JobName,
    connection: ConnectionOptions,
  ) {
    super(jobQueueName(jobName), { connection, prefix: bus.prefix });
  }

  override async getJob(jobId: string): Promise<Job | undefined> {
    const job = await super.getJob(jobId);
    if (job !== undefined) this.open(job);
    return job;
  }

  override async getJobs(...args: Parameters<Queue['getJobs']>): Promise<Job[]> {
    const jobs = await super.getJobs(...args);
    for (const job of jobs) this.open(job);
    return jobs;
  }

  private open(job: Job): void {
    try {
      job.data = openJobData(this.bus, this.jobName, job.data);
    } catch {
      // Dropped or foreign: left as stored, so a test sees what is there.
    }
  }
}
