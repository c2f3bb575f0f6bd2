package dev.sluice.testing;

import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.TraceServiceGrpc;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A real OTLP/gRPC trace receiver for tests: the collector's {@code TraceService} on a free port,
 * keeping every span it is sent with the resource it came with.
 */
public final class OtlpReceiver implements AutoCloseable {
  /** One received span and the resource of the process that sent it. */
  public record Received(Resource resource, Span span) {}

  private final List<Received> spans = new CopyOnWriteArrayList<>();
  private final Server server;

  private OtlpReceiver() {
    server =
        Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
            .addService(new Collector())
            .build();
  }

  public static OtlpReceiver start() {
    OtlpReceiver receiver = new OtlpReceiver();
    try {
      receiver.server.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return receiver;
  }

  /** The endpoint to give an OTLP/gRPC exporter. */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getPort();
  }

  public List<Received> spans() {
    return new ArrayList<>(spans);
  }

  @Override
  public void close() {
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private final class Collector extends TraceServiceGrpc.TraceServiceImplBase {
    @Override
    public void export(
        ExportTraceServiceRequest request, StreamObserver<ExportTraceServiceResponse> responses) {
      for (ResourceSpans resourceSpans : request.getResourceSpansList()) {
        for (ScopeSpans scopeSpans : resourceSpans.getScopeSpansList()) {
          for (Span span : scopeSpans.getSpansList()) {
            spans.add(new Received(resourceSpans.getResource(), span));
          }
        }
      }
      responses.onNext(ExportTraceServiceResponse.getDefaultInstance());
      responses.onCompleted();
    }
  }
}
