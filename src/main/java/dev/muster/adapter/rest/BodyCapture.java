package dev.muster.adapter.rest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Lands an HTTP/1.x request body that {@link LargeBodies} reads (a large one, or a small one answered on the event
 * loop) in one array of its Content-Length as it comes off the socket, so that it is held once on the heap instead
 * of twice.
 *
 * <p>Why: the HTTP server reads the socket into pooled (off-heap) buffers, and Vert.x copies every body chunk out of
 * them into a new heap buffer before handing it on ({@code VertxHandler.safeBuffer}), because a pooled buffer must be
 * given back. Without this handler, {@link LargeBodies} copies each of those chunks into the array the decoder reads,
 * so a 106 MB body costs 106 MB of chunk buffers plus the 106 MB array. Here a Netty handler placed just before
 * Vert.x's copies each chunk from the pooled buffer straight into the array and passes Vert.x a view of the array's
 * range instead (a heap buffer that is not pooled, which Vert.x hands on as it is). Whoever reads the request then
 * gets the same bytes in the same order as without the handler, only in other buffers; {@link LargeBodies.Body}
 * recognises the views and adopts the array instead of copying.
 *
 * <p>Safety does not rest on the handler knowing where a chunk belongs: a chunk is written at the next free place of
 * the array and the array is written once, front to back. {@link LargeBodies.Body} adopts the array (the one
 * {@link #arm} returned) only when the first chunk the request delivers is the view at its start, and from then on
 * takes in place only the view that continues exactly where the delivered bytes end. When the first chunk is anything
 * else (one that reached Vert.x before the handler was armed, as a pipelined request's might), the body goes to a
 * new array and every chunk is copied into it. Only for HTTP/1.x on a Vert.x connection whose pipeline can be
 * reached; otherwise nothing changes.
 */
final class BodyCapture extends ChannelInboundHandlerAdapter {
    private static final String NAME = "muster-body-capture";

    /** The armed request's array, null when none; written up to {@link #at}. */
    private byte[] target;
    private int at;

    private BodyCapture() {
    }

    /**
     * Arms the connection's capture for {@code request}'s body of {@code length} bytes and returns the array it fills,
     * or null when the connection is not HTTP/1.x or its pipeline cannot be reached. Called on the event loop while
     * the request is dispatched, before its body is read.
     */
    static byte[] arm(HttpServerRequest request, int length) {
        if (length <= 0 || request.version() == HttpVersion.HTTP_2
                || !(request.connection() instanceof ConnectionBase connection)) {
            return null;
        }
        ChannelHandlerContext vertx = connection.channelHandlerContext();
        if (vertx == null || vertx.isRemoved() || !vertx.executor().inEventLoop()) {
            return null;
        }
        BodyCapture capture = (BodyCapture) vertx.pipeline().get(NAME);
        if (capture == null) {
            capture = new BodyCapture();
            vertx.pipeline().addBefore(vertx.name(), NAME, capture);
        }
        capture.target = new byte[length];
        capture.at = 0;
        return capture.target;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest) {
            target = null; // the next request: armed again by the route if it is large
        } else if (target != null && msg instanceof HttpContent content) {
            ByteBuf bytes = content.content();
            int n = bytes.readableBytes();
            boolean last = msg instanceof LastHttpContent;
            if (n > 0 && n <= target.length - at) {
                bytes.getBytes(bytes.readerIndex(), target, at, n);
                HttpContent view = content.replace(Unpooled.wrappedBuffer(target, at, n));
                at += n;
                if (last || at == target.length) {
                    target = null;
                }
                content.release();
                ctx.fireChannelRead(view);
                return;
            }
            if (last || n > 0) {
                target = null; // the body is over, or longer than declared: the rest goes as it came
            }
        }
        ctx.fireChannelRead(msg);
    }

    /** Where {@code chunk}'s bytes start in {@code array}, or -1 when it is not a view of it. */
    static int offsetIn(Buffer chunk, byte[] array) {
        ByteBuf b = chunk.getByteBuf();
        return b.hasArray() && b.array() == array ? b.arrayOffset() + b.readerIndex() : -1;
    }

}
