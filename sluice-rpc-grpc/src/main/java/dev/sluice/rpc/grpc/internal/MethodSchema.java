package dev.sluice.rpc.grpc.internal;

import com.google.protobuf.Descriptors;
import io.grpc.protobuf.ProtoMethodDescriptorSupplier;

/** What gRPC server reflection reads of a method: its protobuf descriptor, besides its service's and file. */
public final class MethodSchema extends ServiceSchema implements ProtoMethodDescriptorSupplier {

    private final String methodName;

    public MethodSchema(Descriptors.ServiceDescriptor service, String methodName) {
        super(service);
        this.methodName = methodName;
    }

    @Override
    public Descriptors.MethodDescriptor getMethodDescriptor() {
        return getServiceDescriptor().findMethodByName(methodName);
    }
}
