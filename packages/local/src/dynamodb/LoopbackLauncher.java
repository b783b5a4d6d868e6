import java.lang.reflect.Field;
import java.util.Optional;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts Amazon's DynamoDB Local listening on 127.0.0.1 only.
 *
 * The jar has no bind-address option: its DynamoDBProxyServer builds Jetty with `new Server(port)`,
 * which listens on every interface, and DynamoDB Local accepts any credentials, so anyone on the
 * network could read or rewrite the table. This launcher builds the server exactly as the jar's
 * own main does (same command-line flags), then points every Jetty connector at 127.0.0.1 before
 * starting it. It refuses to start when it cannot, rather than fall back to every interface.
 *
 * dynamodb-local.ts compiles it once with javac (or runs it as a single-file program):
 * java -cp "DynamoDBLocal.jar:DynamoDBLocal_lib/*" LoopbackLauncher.java -port N
 * [-dbPath DIR | -inMemory] -sharedDb -disableTelemetry. Telemetry is never configured
 * (the jar's main configures it; createServerFromCommandLineArgs does not), so nothing is sent.
 *
 * It also exits when the process that started it goes away (even by SIGKILL), so a crashed or
 * killed `npm start` does not leave an unauthenticated database behind on its port.
 */
public class LoopbackLauncher {
  private static final String LOOPBACK = "127.0.0.1";

  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    if (proxy == null) {
      System.err.println("DynamoDB Local did not accept the arguments");
      System.exit(2);
    }
    Server jetty = jettyOf(proxy);
    Connector[] connectors = jetty.getConnectors();
    if (connectors.length == 0) fail("DynamoDB Local has no connector to bind");
    for (Connector connector : connectors) {
      if (!(connector instanceof ServerConnector)) fail("unexpected Jetty connector " + connector.getClass().getName());
      ((ServerConnector) connector).setHost(LOOPBACK);
    }
    exitWithParent();
    proxy.start();
  }

  /** The proxy keeps its Jetty server in a private field; find it by type, whatever its name. */
  private static Server jettyOf(DynamoDBProxyServer proxy) throws IllegalAccessException {
    for (Field field : DynamoDBProxyServer.class.getDeclaredFields()) {
      if (Server.class.isAssignableFrom(field.getType())) {
        field.setAccessible(true);
        Server server = (Server) field.get(proxy);
        if (server != null) return server;
      }
    }
    fail("this DynamoDB Local build keeps no Jetty server where the launcher expects it");
    return null;
  }

  /**
   * Polls the parent process: when it is gone (the JVM was re-parented), stop. Polling is the
   * portable way; Java has no parent-death signal.
   */
  private static void exitWithParent() {
    Optional<ProcessHandle> parent = ProcessHandle.current().parent();
    if (parent.isEmpty()) return;
    long parentPid = parent.get().pid();
    Thread watcher = new Thread(() -> {
      while (true) {
        try {
          Thread.sleep(500);
        } catch (InterruptedException e) {
          return;
        }
        Optional<ProcessHandle> now = ProcessHandle.current().parent();
        if (now.isEmpty() || now.get().pid() != parentPid || !now.get().isAlive()) {
          System.err.println("DynamoDB Local: the process that started it is gone; exiting");
          Runtime.getRuntime().halt(3);
        }
      }
    }, "hangar-parent-watch");
    watcher.setDaemon(true);
    watcher.start();
  }

  private static void fail(String message) {
    System.err.println("DynamoDB Local launcher: " + message + "; refusing to listen on every interface");
    System.exit(2);
  }
}
