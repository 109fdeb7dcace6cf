/** One line of `collie doctor`'s report (doctor.ts and doctor-walky.ts both make them). */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** Worth a look, but not a failure: printed as WARN, the exit code stays 0. */
  warn?: boolean;
}
