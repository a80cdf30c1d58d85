/**
 * The Replication Manager's contract: the typed records its HTTP interface sends and receives, shared by the manager
 * and every client of it (the harness, the fail-over client). Nothing here depends on the rest of the manager.
 */
package org.ftlab.rm.api;
